import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { JsonSchema } from '../../core/json-schema.types.js';
import { MCP_TOOL_NAME_PATTERN } from './tool-name.js';

/** A scope as an OAuth `scope-token` (RFC 6749 §3.3): printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The checks a tool definition passes wherever it comes from (`@McpTool()` at boot, `McpToolRegistry.register()`
 * at runtime): the idempotency-key argument must be a property of the input schema, and scopes must be tokens.
 * Returns the scopes as a fresh array.
 */
export function checkToolBindings(site: string, inputSchema: JsonSchema, idempotencyKey: string | undefined, scopes: unknown): string[] {
  if (idempotencyKey !== undefined && !(idempotencyKey in ((inputSchema.properties as object | undefined) ?? {}))) {
    throw new McpConfigurationError(McpMessages.unknownIdempotencyKey(site, idempotencyKey));
  }
  const list = scopes ?? [];
  if (!Array.isArray(list) || list.some((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope))) {
    throw new McpConfigurationError(McpMessages.invalidScopes(site));
  }
  return [...(list as string[])];
}

/** The name and timeout checks of a tool read from a decorator (`@McpTool()`, `@McpRoute()`), with its place. */
export function checkToolNameAndTimeout(site: string, name: string, timeoutMs: number): void {
  if (!MCP_TOOL_NAME_PATTERN.test(name)) throw new McpConfigurationError(McpMessages.invalidToolName(site, name));
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new McpConfigurationError(McpMessages.invalidTimeout(site, timeoutMs));
}
