import { Injectable } from '@nestjs/common';
import { McpToolRegistry } from '../../discovery/mcp-tool.registry.js';
import { createToolContext } from '../../execution/tool-context.factory.js';
import { McpToolCallRunner } from '../../execution/tool-call.runner.js';
import { JsonRpcErrorCode } from '../json-rpc-error-codes.js';
import { McpProtocolError } from '../protocol-error.js';
import type { McpCall, McpMethodHandler } from './method-handler.interface.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `tools/call`: a malformed request or an unknown tool is a protocol error (-32602); everything about the
 * call itself (bad arguments, failures, timeouts) is an `isError` result carrying an envelope.
 */
@Injectable()
export class ToolsCallHandler implements McpMethodHandler {
  readonly method = 'tools/call';

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly runner: McpToolCallRunner,
  ) {}

  async handle(call: McpCall): Promise<Record<string, unknown>> {
    const { name, arguments: rawArgs, _meta: meta } = call.params;
    if (typeof name !== 'string') throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: tools/call needs a tool name');
    if (rawArgs !== undefined && rawArgs !== null && !isPlainObject(rawArgs)) {
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: arguments must be an object');
    }
    const tool = this.registry.get(name);
    if (!tool) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown tool: ${name}`);

    const handle = createToolContext({
      requestId: call.id,
      toolName: name,
      progressToken: isPlainObject(meta) ? meta.progressToken : undefined,
      request: call.context,
      signal: call.signal,
    });
    try {
      const result = await this.runner.run(tool, (rawArgs ?? {}) as Record<string, unknown>, handle.context, call.controller);
      return result as unknown as Record<string, unknown>;
    } finally {
      handle.finish();
    }
  }
}
