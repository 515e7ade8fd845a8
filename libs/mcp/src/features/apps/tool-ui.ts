import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { MCP_UI_EXTENSION, MCP_UI_LEGACY_RESOURCE_URI_KEY, MCP_UI_MIME_TYPE } from './mcp-apps.constants.js';
import { McpAppsMessages } from './mcp-apps.messages.js';
import type { McpToolUiOptions, McpUiToolVisibility } from './mcp-ui-options.interface.js';
import { isPlainObject } from '../../core/plain-object.js';

const VISIBILITIES: readonly McpUiToolVisibility[] = ['model', 'app'];

/**
 * The tool's `_meta` for `@McpTool({ ui })`: `ui.resourceUri` (and the legacy flat key), `ui.visibility` when given.
 * Shape errors fail the boot naming `site` and `option`; whether the URI is served is the explorer's check.
 */
export function toolUiMeta(site: string, ui: McpToolUiOptions, option?: string): Record<string, unknown> {
  const fail = (problem: string) => new McpConfigurationError(McpAppsMessages.invalidToolUi(site, problem, option));
  if (!isPlainObject(ui)) throw fail('must be an object');
  const { resourceUri, visibility } = ui;
  if (typeof resourceUri !== 'string' || !resourceUri.startsWith('ui://') || resourceUri.length <= 'ui://'.length) {
    throw fail(`has resourceUri ${JSON.stringify(resourceUri)}, not a ui:// URI`);
  }
  if (
    visibility !== undefined &&
    (!Array.isArray(visibility) ||
      visibility.length === 0 ||
      visibility.some((scope) => !VISIBILITIES.includes(scope)) ||
      new Set(visibility).size !== visibility.length)
  ) {
    throw fail(`has visibility ${JSON.stringify(visibility)}: expected a non-empty list of 'model' and 'app'`);
  }
  return {
    ui: { resourceUri, ...(visibility !== undefined && { visibility: [...visibility] }) },
    [MCP_UI_LEGACY_RESOURCE_URI_KEY]: resourceUri,
  };
}

/** The `_meta.ui` of a tool descriptor, if it has one. */
export function uiOfTool(descriptor: { _meta?: Record<string, unknown> }): { resourceUri: string; visibility?: string[] } | undefined {
  const ui = descriptor._meta?.ui;
  return isPlainObject(ui) && typeof ui.resourceUri === 'string' ? (ui as { resourceUri: string; visibility?: string[] }) : undefined;
}

/**
 * Whether the client declared MCP Apps in `capabilities.extensions` (`initialize`, or each 2026-07-28 request's
 * `clientCapabilities`): the extension's object, whose `mimeTypes`, when listed, include `text/html;profile=mcp-app`.
 */
export function clientSupportsUi(clientCapabilities: Record<string, unknown> | undefined): boolean {
  const extensions = clientCapabilities?.extensions;
  const ui = isPlainObject(extensions) ? extensions[MCP_UI_EXTENSION] : undefined;
  if (!isPlainObject(ui)) return false;
  return !Array.isArray(ui.mimeTypes) || ui.mimeTypes.includes(MCP_UI_MIME_TYPE);
}

/**
 * A tool for the app only (`ui.visibility` without `model`): the one kind a client without the extension does not
 * see (McpToolVisibility), since no app of it can call the tool and the model must not.
 */
export function isAppOnlyTool(descriptor: { _meta?: Record<string, unknown> }): boolean {
  const visibility = uiOfTool(descriptor)?.visibility;
  return Array.isArray(visibility) && !visibility.includes('model');
}
