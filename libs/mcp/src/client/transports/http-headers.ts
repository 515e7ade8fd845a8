import type { McpClientHeaders } from '../mcp-client-options.interface.js';
import { McpClientError } from '../mcp-client.error.js';

/**
 * The headers of one request: the client's (a function is called each time, given `call`), then the `headers` of
 * the call it is sent for over them. A fresh object, filled by assignment (not a spread literal: "Hot paths" in
 * docs/architecture.md).
 */
export async function resolveHeaders(
  headers: McpClientHeaders | undefined,
  call?: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const own = headers === undefined ? undefined : typeof headers === 'function' ? await headers(call) : headers;
  return Object.assign({}, own, call);
}

/** `fetch`, with a network failure (refused, reset, DNS) reported as `UNAVAILABLE` naming no internals. */
export async function fetchOrUnavailable(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason instanceof Error ? init.signal.reason : new McpClientError('CANCELLED', 'Cancelled');
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new McpClientError('UNAVAILABLE', `The server at ${new URL(url).origin} cannot be reached${cause ? ` (${cause})` : ''}`);
  }
}

/** The error for a refused HTTP request: 5xx and 429 are retryable (`UNAVAILABLE`), the rest `PROTOCOL`. */
export function statusError(status: number, what: string): McpClientError {
  const code = status >= 500 || status === 429 ? 'UNAVAILABLE' : 'PROTOCOL';
  return new McpClientError(code, `${what} answered HTTP ${status}`, { status });
}
