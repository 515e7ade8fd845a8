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

/** A symbol holding the caller's credential headers, out of the public `McpToolContext` and its JSON. */
export const CALLER_HEADERS: unique symbol = Symbol('mcp:caller-headers');

/** The credential headers of the call a tool context serves (none in-memory or when the caller sent none). */
export function callerHeadersOf(context: McpToolContext): Readonly<Record<string, string>> | undefined {
  return (context as unknown as { [CALLER_HEADERS]?: Readonly<Record<string, string>> })[CALLER_HEADERS];
}
