import { SetMetadata } from '@nestjs/common';
import { MCP_UI_RESOURCE_METADATA } from './mcp-apps.constants.js';
import type { McpUiResourceOptions } from './mcp-ui-options.interface.js';

/**
 * Serves a provider method's HTML as an MCP App (extension `io.modelcontextprotocol/ui`): a `ui://` resource
 * with mimeType `text/html;profile=mcp-app` and `_meta.ui` (CSP domains, permissions, border preference) in
 * both `resources/list` and `resources/read`. The method returns the HTML string (self-contained: the host
 * renders it in a sandboxed iframe); it receives `({}, context)` like `@McpResource()`. Tools point at it with
 * `@McpTool({ ui: { resourceUri } })`.
 * @publicApi
 * @example
 * @McpUiResource({ uri: 'ui://weather/card', name: 'weather-card', prefersBorder: true })
 * card() { return WEATHER_CARD_HTML; }
 */
export const McpUiResource = (options: McpUiResourceOptions): MethodDecorator => SetMetadata(MCP_UI_RESOURCE_METADATA, options);
