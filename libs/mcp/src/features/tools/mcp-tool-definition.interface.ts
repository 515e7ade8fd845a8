import type { McpCallableTool } from '../../execution/mcp-callable-tool.interface.js';
import type { McpToolDescriptor } from '../../core/mcp-tool-descriptor.interface.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpToolVisibleTo } from '../../options/mcp-tool-filter.interface.js';

export type { McpToolDescriptor };

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
