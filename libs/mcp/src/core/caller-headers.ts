import { headersNamed } from './trace-headers.js';
import type { McpToolContext } from './mcp-tool-context.interface.js';

/** The headers that carry a caller's credentials, as REST guards read them (lower-case names). */
const CREDENTIAL_HEADER_NAMES = ['authorization', 'x-api-key'] as const;

/**
 * The credential headers among a message's transport headers (`header` reads one, by lower-case name), or undefined
 * when it has none: what `McpRequestContext.callerHeaders` carries, so a controller route called as a tool sees the
 * caller's credentials as its REST guards would.
 */
export function callerHeadersFrom(header: (name: string) => string | undefined): Readonly<Record<string, string>> | undefined {
  return headersNamed(CREDENTIAL_HEADER_NAMES, header);
}

/** The stdio caller's launch token as the `Authorization` header a REST guard expects. */
export function bearerHeaders(token: string | undefined): Readonly<Record<string, string>> | undefined {
  return token ? { authorization: `Bearer ${token}` } : undefined;
}

/**
 * Where a tool context keeps its caller's credential headers: a symbol, so they stay out of the public
 * `McpToolContext` (tools see the verified principal, never the raw token) and out of its JSON.
 */
export const CALLER_HEADERS: unique symbol = Symbol('mcp:caller-headers');

/** The credential headers of the call a tool context serves (none in-memory or when the caller sent none). */
export function callerHeadersOf(context: McpToolContext): Readonly<Record<string, string>> | undefined {
  return (context as unknown as { [CALLER_HEADERS]?: Readonly<Record<string, string>> })[CALLER_HEADERS];
}
