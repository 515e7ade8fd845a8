import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpContext, McpDispatcher, McpModule, McpTool, type McpToolContext } from '../../index.js';

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
    const moduleRef = await Test.createTestingModule({ imports: [McpModule.forRoot({ name: 'raw', version: '1.0.0' })], providers: [RawSchemaTools] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      const answer = await app.get(McpDispatcher).dispatch(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
        { transport: 'http', protocolVersion: '2025-11-25' },
      );
      expect(answer).toMatchObject({ result: { structuredContent: { status: 'success', data: { args: { text: 'hi' }, tool: 'echo' } }, isError: false } });
      const invalid = await app.get(McpDispatcher).dispatch(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 3 } } },
        { transport: 'http', protocolVersion: '2025-11-25' },
      );
      expect(invalid).toMatchObject({ result: { isError: true, structuredContent: { error: { code: 'VALIDATION_ERROR', fields: ['text'] } } } });
    } finally {
      await app.close();
    }
  });
});
