import type { McpOAuthAuthorizer } from '../auth/oauth-authorizer.js';
import type { McpClientHeaders } from '../mcp-client-options.interface.js';
import { McpClientError } from '../mcp-client.error.js';

/**
 * The headers of one request: the client's (a function is called each time, given `call`), then the `headers` of
 * the call it is sent for over them, then the `auth` option's token. A fresh object, filled by assignment (not a
 * spread literal: "Hot paths" in docs/architecture.md).
 */
export async function resolveHeaders(
  headers: McpClientHeaders | undefined,
  call: Readonly<Record<string, string>> | undefined,
  auth: McpOAuthAuthorizer | undefined,
): Promise<Record<string, string>> {
  const own = headers === undefined ? undefined : typeof headers === 'function' ? await headers(call) : headers;
  const resolved: Record<string, string> = Object.assign({}, own, call);
  const authorization = await auth?.authorization();
  if (authorization !== undefined) resolved.authorization = authorization;
  return resolved;
}

/** The error for a refused HTTP request: 5xx and 429 are retryable (`UNAVAILABLE`), the rest `PROTOCOL`. */
export function statusError(status: number, what: string): McpClientError {
  const code = status >= 500 || status === 429 ? 'UNAVAILABLE' : 'PROTOCOL';
  return new McpClientError(code, `${what} answered HTTP ${status}`, { status });
}
