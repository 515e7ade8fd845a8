import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';

/**
 * Shapes a tool as a source yields it, before it is registered: the result is the tool callers see and call
 * (renamed, namespaced, with arguments renamed or fixed). Applied once at boot, in list order, so the request
 * path pays nothing; per-caller shaping (visibility) is a {@link McpToolVisibilityRule} instead.
 */
export type McpToolTransform = (tool: McpToolDefinition) => McpToolDefinition;
