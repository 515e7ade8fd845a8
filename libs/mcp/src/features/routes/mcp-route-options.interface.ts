import type { McpToolAnnotations } from '../tools/mcp-tool-options.interface.js';

/**
 * Options of `@McpRoute()`. On a handler they describe its tool; on a controller class every handler becomes a tool
 * and only `scopes`, `timeoutMs` and `annotations` apply (a name or description belongs to one handler).
 * @publicApi
 */
export interface McpRouteOptions {
  /** Tool name; default: the handler's name in snake_case (`createTicket` → `create_ticket`). */
  name?: string;
  /** What the model reads; default: `@ApiOperation({ summary, description })`, else `<VERB> <path>`. */
  description?: string;
  title?: string;
  /** Merged over the hints the HTTP verb gives (GET read-only, DELETE destructive, PUT idempotent). */
  annotations?: McpToolAnnotations;
  /** Scopes the MCP caller needs to see and call the tool (beside whatever the route's own guards check). */
  scopes?: string[];
  /** Per-call timeout (ms); default: the module's `tools.timeoutMs`. */
  timeoutMs?: number;
}
