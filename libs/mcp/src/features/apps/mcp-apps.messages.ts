import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of MCP Apps: each names the place and the fix (codes in `docs/errors.md`). */
export const McpAppsMessages = bootErrors({
  invalidToolUi: {
    code: 'MCP_ERR_APP_TOOL_UI_INVALID',
    message: (site: string, problem: string, option = '@McpTool({ ui })'): string =>
      `${site}: ${option} ${problem}. Use ui: { resourceUri: 'ui://<server>/<view>', visibility?: ['model', 'app'] }.`,
    fix: 'Give `ui.resourceUri` a `ui://` URI and a valid `visibility`.',
  },
  unservedToolUi: {
    code: 'MCP_ERR_APP_TOOL_UI_UNSERVED',
    message: (tool: string, site: string, uri: string, served: readonly string[]): string =>
      `Tool '${tool}' (${site}) has ui.resourceUri '${uri}', which no @McpUiResource() of this server serves` +
      (served.length > 0 ? ` (served: ${served.join(', ')})` : '') +
      `. Add @McpUiResource({ uri: '${uri}', name }) on a provider method returning the HTML, or fix the URI.`,
    fix: 'Serve the view with `@McpUiResource()`, or fix the URI.',
    shown: { served: ['<uris>'] },
  },
  invalidUiResource: {
    code: 'MCP_ERR_APP_UI_RESOURCE_INVALID',
    message: (site: string, problem: string): string =>
      `${site}: @McpUiResource() ${problem}. Example: @McpUiResource({ uri: 'ui://weather/card', name: 'weather-card' }).`,
    fix: 'Give a `ui://` URI and a `name`.',
  },
  duplicateUiResource: {
    code: 'MCP_ERR_APP_UI_RESOURCE_DUPLICATE',
    message: (uri: string, first: string, second: string): string =>
      `UI resource '${uri}' is declared twice: ${first} and ${second}. Give each app its own ui:// URI.`,
    fix: 'Keep one declaration per `ui://` URI.',
  },
});
