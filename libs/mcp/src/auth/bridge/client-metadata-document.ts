import type { BridgeClient } from './bridge-grants.js';
import { isAcceptableRedirectUri } from './redirect-uri.js';
import { readBoundedText } from '../../core/bounded-text.js';

/** Largest client metadata document read. */
const MAX_DOCUMENT_BYTES = 5 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether `clientId` is a client ID metadata document URL this bridge fetches: https with a path, no fragment, no
 * credentials, no dot segments (draft-ietf-oauth-client-id-metadata-document §3); http on loopback only when allowed
 * (tests and local development).
 */
export function isClientIdUrl(clientId: string, allowHttpLoopback: boolean): boolean {
  if (!/^https?:\/\//.test(clientId) || clientId.length > 2_000) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password || url.pathname === '/' || /\/\.\.?(\/|$)/.test(clientId.slice(url.origin.length)))
    return false;
  return url.protocol === 'https:' || (allowHttpLoopback && url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/**
 * Fetches and checks a client ID metadata document: JSON, at most 5 KiB, within `timeoutMs`, no redirect followed;
 * its `client_id` must be its own URL and its redirect URIs acceptable. Undefined when any of that fails.
 */
export async function fetchClientMetadataDocument(clientId: string, timeoutMs: number): Promise<BridgeClient | undefined> {
  try {
    const response = await fetch(clientId, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    if (!response.ok || !response.body) return undefined;
    // Over the bound: BodyTooLargeError, undefined below like any other failure.
    const document = JSON.parse(await readBoundedText(response.body, MAX_DOCUMENT_BYTES)) as Record<string, unknown>;
    const redirectUris = document.redirect_uris;
    if (document.client_id !== clientId || !Array.isArray(redirectUris) || redirectUris.length === 0 || redirectUris.length > 10)
      return undefined;
    if (!redirectUris.every(isAcceptableRedirectUri)) return undefined;
    // A public client: one claiming a secret-based method here has no secret with this bridge.
    const method = document.token_endpoint_auth_method;
    if (method !== undefined && method !== 'none') return undefined;
    return {
      client_id: clientId,
      redirect_uris: redirectUris,
      ...(typeof document.client_name === 'string' && document.client_name !== '' && { client_name: document.client_name.slice(0, 200) }),
      client_id_issued_at: Math.floor(Date.now() / 1000),
    };
  } catch {
    return undefined;
  }
}
