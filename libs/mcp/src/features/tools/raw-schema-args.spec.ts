import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { McpContext, McpTool, type McpToolContext } from '../../index.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { bootMcp, closeMcpApps } from '../../../../../test/kit/boot-mcp.js';

@Injectable()
class RawSchemaTools {
  @McpTool({
    description: 'Echoes its arguments and tool name',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  })
  echo(args: Record<string, unknown>, @McpContext() context: McpToolContext) {
    return { args, tool: context.toolName };
  }
}

describe('a tool with a hand-written inputSchema', () => {
  it('gets its plain arguments in an undecorated first parameter beside @McpContext()', async () => {
    const app = await bootMcp([RawSchemaTools], { options: { name: 'raw' } });
    try {
      const answer = await app
        .get(McpDispatcher)
        .dispatch(
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
          { transport: 'http', protocolVersion: '2025-11-25' },
        );
      expect(answer).toMatchObject({
        result: { structuredContent: { status: 'success', data: { args: { text: 'hi' }, tool: 'echo' } }, isError: false },
      });
      const invalid = await app
        .get(McpDispatcher)
        .dispatch(
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 3 } } },
          { transport: 'http', protocolVersion: '2025-11-25' },
        );
      expect(invalid).toMatchObject({
        result: { isError: true, structuredContent: { error: { code: 'VALIDATION_ERROR', fields: ['text'] } } },
      });
    } finally {
      await closeMcpApps();
    }
  });
});
