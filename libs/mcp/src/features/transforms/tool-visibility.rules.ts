import type { JsonRpcId } from '../../core/json-rpc/json-rpc.types.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { createToolContext } from '../../execution/tool-context.factory.js';
import { clientSupportsUi, isAppOnlyTool } from '../apps/tool-ui.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpToolFilter } from '../../options/mcp-tool-filter.interface.js';

/**
 * What visibility reads of a request: who calls, what the client declared (MCP Apps), and enough for a guard's
 * `McpExecutionContext`.
 */
export type McpVisibilityRequest = Pick<
  McpRequestContext,
  'principal' | 'transport' | 'protocolVersion' | 'sessionId' | 'clientCapabilities'
>;

/**
 * A per-caller transform that can only hide: false (or a throw) and the tool does not exist for this caller.
 * Rules run in list order and the first refusal wins, so cheap ones go first.
 */
export type McpToolVisibilityRule = (
  tool: McpToolDefinition,
  request: McpVisibilityRequest,
  requestId: JsonRpcId,
) => boolean | Promise<boolean>;

/** An MCP Apps tool for the app only (`ui.visibility: ['app']`) exists only for clients that declared the extension. */
export const appOnlyRule: McpToolVisibilityRule = (tool, request) =>
  !isAppOnlyTool(tool.descriptor) || clientSupportsUi(request.clientCapabilities);

/** The tool's own `visibleTo`. */
export const visibleToRule: McpToolVisibilityRule = (tool, request) => !tool.visibleTo || tool.visibleTo(request.principal);

/** One `tools.filters` provider. */
export function filterRule(filter: McpToolFilter): McpToolVisibilityRule {
  return (tool, request) => filter.isVisible(tool.descriptor, request.principal);
}

/** With `tools.hideGuarded`, the tool's Nest guards as a listing sees the tool (arguments `{}`). */
export const guardsRule: McpToolVisibilityRule = (tool, request, requestId) => {
  if (!tool.guardsAdmit) return true;
  const handle = createToolContext({
    requestId,
    toolName: tool.name,
    progressToken: undefined,
    request,
    signal: new AbortController().signal,
  });
  // A listing sends nothing: progress and log calls by a guard are dropped.
  handle.finish();
  // As a call would: a listing sends no arguments, but the tool's guards see the values transforms fix.
  return tool.guardsAdmit(handle.context, tool.toToolArgs ? tool.toToolArgs({}) : {});
};
