import type { McpCaller } from './mcp-caller.js';
import type { McpToolContext } from './mcp-tool-context.interface.js';
import { headersNamed } from './trace-headers.js';

/** The headers that carry a caller's credentials, as REST guards read them (lower-case names). */
const CREDENTIAL_HEADER_NAMES = ['authorization', 'x-api-key'] as const;

/** A symbol holding the call's {@link McpCaller}, out of the public `McpToolContext` and its JSON. */
export const MCP_CALLER: unique symbol = Symbol('mcp:caller');

/** The caller of the call a tool context serves; undefined for a context no transport built (a unit test's). */
export function callerOf(context: McpToolContext): McpCaller | undefined {
  return (context as unknown as { [MCP_CALLER]?: McpCaller })[MCP_CALLER];
}

/** The credential headers of a caller (`authorization`, `x-api-key`), or undefined when it sent none. */
export function credentialHeaders(caller: McpCaller | undefined): Readonly<Record<string, string>> | undefined {
  if (!caller) return undefined;
  return headersNamed(CREDENTIAL_HEADER_NAMES, (name) => {
    const raw = caller.headers[name];
    return Array.isArray(raw) ? raw[0] : raw;
  });
}

/** The credential headers of the call a tool context serves (none in-memory or when the caller sent none). */
export function callerHeadersOf(context: McpToolContext): Readonly<Record<string, string>> | undefined {
  return credentialHeaders(callerOf(context));
}

/** A symbol holding the client capabilities of the call's request (this request's `caps` in 2026-07-28). */
export const MCP_CLIENT_CAPABILITIES: unique symbol = Symbol('mcp:client-capabilities');

/** The client capabilities of the call a tool context serves (undefined in a unit test's context). */
export function clientCapabilitiesOf(context: McpToolContext): Readonly<Record<string, unknown>> | undefined {
  return (context as unknown as { [MCP_CLIENT_CAPABILITIES]?: Record<string, unknown> })[MCP_CLIENT_CAPABILITIES];
}
