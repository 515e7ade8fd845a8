import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { MCP_TOOL_NAME_PATTERN } from '../tools/tool-name.js';
import type { McpToolTransform } from './mcp-tool-transform.interface.js';

/**
 * Prefixes every tool of a source with `<namespace>_` (an upstream server's `search` becomes `weather_search`),
 * so sources cannot clash. A name that no longer fits the tool-name rules fails the boot naming the tool's site.
 */
export function namespaceTools(namespace: string): McpToolTransform {
  return (tool) => {
    const name = `${namespace}_${tool.name}`;
    if (!MCP_TOOL_NAME_PATTERN.test(name)) throw new McpConfigurationError(McpMessages.invalidToolName(tool.site, name));
    return { ...tool, name, descriptor: { ...tool.descriptor, name } };
  };
}
