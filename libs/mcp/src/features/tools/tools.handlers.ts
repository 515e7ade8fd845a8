import { Inject, Injectable } from '@nestjs/common';
import { McpToolVisibility } from './mcp-tool.visibility.js';
import type { McpToolDefinition } from './mcp-tool-definition.interface.js';
import { createToolContext } from '../../execution/tool-context.factory.js';
import { McpCallPipeline } from '../../execution/mcp-call.pipeline.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText } from '../../core/client-text.js';
import { McpClientRequests } from '../../core/client-requests.js';
import type { McpCallToolResult } from '../../core/results/content.types.js';
import type { McpCall, McpMethodHandler, McpMethodHandlerGroup } from '../../core/method-handler.interface.js';
import { listPage } from '../../core/pagination-cursor.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { McpToolDescriptor } from './mcp-tool-definition.interface.js';
import type { McpToolCallHook } from './tool-call-hook.interface.js';
import { MCP_TOOL_CATALOG_TRANSFORMS, type McpToolCatalogTransform } from '../transforms/mcp-tool-catalog-transform.interface.js';

/**
 * `tools/list`: the descriptors this caller may see, a page at a time. `tools/call` ({@link call}, the table entry of
 * each era): a malformed request or an unknown tool is -32602; the rest is an `isError` envelope from `McpCallPipeline`.
 */
@McpMethodHandlerProvider()
@Injectable()
export class ToolsHandlers implements McpMethodHandlerGroup {
  readonly handlers: readonly McpMethodHandler[] = [
    {
      method: 'tools/list',
      handle: async ({ id, params, context }: McpCall) =>
        this.listed
          ? listPage('tools', this.listed, params.cursor, this.options.lists.pageSize)
          : this.visibility.visiblePage(context, params.cursor, this.options.lists.pageSize, id),
    },
  ];

  /** What `tools/list` shows instead of the catalogue (tool search in `replace` mode); fixed at boot. */
  private readonly listed?: readonly McpToolDescriptor[];
  /** The catalogue transforms that make a call stand for another (tool search's `call_tool`); fixed at boot. */
  private readonly aliasing: readonly McpToolCatalogTransform[];

  constructor(
    private readonly pipeline: McpCallPipeline,
    private readonly clientRequests: McpClientRequests,
    private readonly visibility: McpToolVisibility,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    @Inject(MCP_TOOL_CATALOG_TRANSFORMS) transforms: readonly McpToolCatalogTransform[],
  ) {
    // The last transform showing a list of its own decides it: a later one shapes what an earlier one left.
    this.listed = transforms.reduce<readonly McpToolDescriptor[] | undefined>((listed, transform) => transform.listed ?? listed, undefined);
    this.aliasing = transforms.filter((transform) => transform.aliased);
  }

  /**
   * One `tools/call` in either era: the alias turned (tool search's `call_tool`), the tool looked up for this caller,
   * the era's `hook` (its checks, its task-augmented calls), the scopes, then the call pipeline.
   */
  call(call: McpCall, hook: McpToolCallHook): Promise<Record<string, unknown>> {
    const params = this.aliased(call.params);
    const target = params === call.params ? call : withParams(call, params);
    // Visibility decided at once (the usual case) costs no tick.
    const tool = this.visibility.visibleTool(toolNameOf(target), target.context, target.id);
    return tool instanceof Promise ? tool.then((visible) => this.callTool(target, visible, hook)) : this.callTool(target, tool, hook);
  }

  /**
   * The params of a `tools/call` as those of the call they stand for (the tool it names, looked up, checked, guarded
   * and validated as that tool); the same object when there is nothing to turn.
   */
  private aliased(params: Record<string, unknown>): Record<string, unknown> {
    let aliased = params;
    for (const transform of this.aliasing) aliased = transform.aliased!(aliased);
    return aliased;
  }

  private async callTool(call: McpCall, tool: McpToolDefinition | undefined, hook: McpToolCallHook): Promise<Record<string, unknown>> {
    const name = toolNameOf(call);
    const { arguments: rawArgs, _meta: meta } = call.params;
    // A tool hidden from this caller answers like a missing one: no hint that it exists.
    if (!tool) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown tool: ${clientText(name)}`);
    hook.check?.(tool, call);
    const forbidden = this.pipeline.admit(tool, call.context);
    if (forbidden) return asRecord(forbidden);
    const own = hook.run?.(tool, call);
    if (own) return own;
    const accepting = hook.accepting?.(tool, call);

    const handle = createToolContext({
      requestId: call.id,
      toolName: name,
      progressToken: isPlainObject(meta) ? meta.progressToken : undefined,
      request: call.context,
      // Read on use: most tools never look at their signal, so the dispatcher's controller is never made.
      signalOf: call,
      clientRequests: this.clientRequests,
    });
    try {
      const result = await this.pipeline.run({
        tool,
        args: (rawArgs ?? {}) as Record<string, unknown>,
        context: handle.context,
        controller: call.controller,
        accepted: accepting?.accepted,
        idempotent: accepting?.idempotent,
      });
      return asRecord(result);
    } finally {
      handle.finish();
    }
  }
}

/** The called tool's name, once the params are known to be well formed (-32602 otherwise). */
function toolNameOf(call: McpCall): string {
  const { name, arguments: rawArgs } = call.params;
  if (typeof name !== 'string') throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: tools/call needs a tool name');
  if (rawArgs !== undefined && rawArgs !== null && !isPlainObject(rawArgs)) {
    throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: arguments must be an object');
  }
  return name;
}

function asRecord(result: McpCallToolResult): Record<string, unknown> {
  return result as unknown as Record<string, unknown>;
}

/**
 * `call` with other params. Not a spread: a call's `signal` is a getter of its class (its controller is made on first
 * read), which a spread would drop, leaving the tool a context without a signal.
 */
function withParams(call: McpCall, params: McpCall['params']): McpCall {
  return {
    id: call.id,
    params,
    context: call.context,
    controller: call.controller,
    get signal() {
      return call.signal;
    },
  };
}
