import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { MCP_TOOL_NAME_PATTERN } from '../tools/tool-name.js';
import type { McpToolTransform } from './mcp-tool-transform.interface.js';

/**
 * Shows the tool under the name `nameOf` gives it (`search` → `weather_search`), in the definition and the
 * descriptor; the site stays, so messages still name the method. A name that breaks the tool-name rules fails the
 * boot naming the tool's site.
 */
export function renameToolTo(nameOf: (name: string) => string): McpToolTransform {
  return (tool) => {
    const name = nameOf(tool.name);
    if (!MCP_TOOL_NAME_PATTERN.test(name)) throw new McpConfigurationError(McpMessages.invalidToolName(tool.site, name));
    return { ...tool, name, descriptor: { ...tool.descriptor, name } };
  };
}

/** Prefixes a source's tools with `<namespace>_` (an upstream server's `search` becomes `weather_search`). */
export function namespaceTool(namespace: string): McpToolTransform {
  return renameToolTo((name) => `${namespace}_${name}`);
}
