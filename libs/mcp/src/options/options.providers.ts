import type { Provider } from '@nestjs/common';
import { McpGlobalPrefix } from './mcp-global-prefix.js';

/**
 * The options' providers beside `MCP_RESOLVED_OPTIONS` (which `McpModule.withEndpoints` adds, as it needs the paths):
 * the app's global prefix, for the URLs handed out (poll_url, endpoint event, resource_metadata, card, explorer).
 */
export const MCP_OPTIONS_PROVIDERS: Provider[] = [McpGlobalPrefix];
