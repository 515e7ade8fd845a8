import { McpClientError } from '../mcp-client.error.js';
import { readBoundedText } from '../../core/bounded-text.js';
import { MAX_OAUTH_BODY_BYTES } from './oauth-grant.js';

/** An AUTH error: authorization failed, naming no token or secret. */
export function authError(message: string, status?: number): McpClientError {
  return new McpClientError('AUTH', message, status === undefined ? {} : { status });
}

/**
 * GETs a metadata document (no redirects followed: a metadata URL that moves is not the one asked for) and reads
 * it bounded; undefined when it is not there (any status but 200) or the host cannot be reached.
 */
export async function fetchMetadata(url: URL, timeoutMs: number): Promise<{ response: Response; json: unknown } | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const text = await readBoundedText(response.body, MAX_OAUTH_BODY_BYTES).catch(() => undefined);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  // A fresh Response over the bounded text, for oauth4webapi's checks of the document.
  return { response: new Response(text, { status: 200, headers: { 'content-type': 'application/json' } }), json };
}

/** Whether `url` may be fetched: https, or http when the caller allowed it (loopback tests). */
export function assertFetchable(url: URL, allowInsecureHttp: boolean, what: string): void {
  if (url.protocol === 'https:' || (allowInsecureHttp && url.protocol === 'http:')) return;
  throw authError(`${what} (${url.origin}) is not https`);
}
