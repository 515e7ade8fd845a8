import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpToolVisibleTo } from '../../options/mcp-tool-filter.interface.js';
import { McpToolRuntimeMessages } from './mcp-tool-runtime.messages.js';

/** `visibleTo` as given, once it is known to be a function (a boot error naming `site` otherwise). */
export function checkVisibleTo(visibleTo: unknown, site: string): McpToolVisibleTo {
  if (typeof visibleTo !== 'function') throw new McpConfigurationError(McpToolRuntimeMessages.invalidVisibleTo(site));
  return visibleTo as McpToolVisibleTo;
}
