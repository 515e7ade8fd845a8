import type { McpCallableTool } from '../../execution/mcp-callable-tool.interface.js';
import type { JsonSchema } from '../../core/json-schema.types.js';
import type { McpToolAnnotations } from './mcp-tool-options.interface.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpToolVisibleTo } from './mcp-tool-filter.interface.js';

/** A tool as `tools/list` sends it. */
export interface McpToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: McpToolAnnotations;
  /** Extension metadata: `ui` (MCP Apps) from `@McpTool({ ui })`. */
  _meta?: Record<string, unknown>;
  /** Task support (spec 2025-11-25): long-running tools may be called as tasks. */
  execution?: { taskSupport: 'forbidden' | 'optional' | 'required' };
}

/** Everything the request path needs about a tool, computed once at boot. */
export interface McpToolDefinition extends McpCallableTool {
  readonly descriptor: McpToolDescriptor;
  /** The class that declares the tool (a provider's or a controller's), for transforms selecting `{ provider }`. */
  readonly declaredBy?: abstract new (...args: never[]) => unknown;
  /** `visibleTo` of the tool: hides it from the callers it refuses. */
  readonly visibleTo?: McpToolVisibleTo;
  /**
   * Runs the tool's Nest guards as a listing sees the tool (`tools.hideGuarded`: no arguments but the values transforms
   * fix); resolves false when they refuse.
   */
  readonly guardsAdmit?: (context: McpToolContext, args: Record<string, unknown>) => Promise<boolean>;
  /** Added at runtime through `McpToolRegistry.register()` (decorated tools cannot be replaced or removed). */
  readonly runtime?: boolean;
}
