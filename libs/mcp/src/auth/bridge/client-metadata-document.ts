import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { BridgeClient } from './bridge-grants.js';
import { isAcceptableRedirectUri } from './redirect-uri.js';
import { isFetchableAddress } from './public-address.js';
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
 * its `client_id` must be its own URL and its redirect URIs acceptable. The host is resolved first and every address
 * it has must be public (loopback too when `allowLoopback`); the connection then goes to the address checked, so a
 * second lookup cannot point it elsewhere (DNS rebinding). Undefined when any of that fails, refused or not, alike.
 */
export async function fetchClientMetadataDocument(
  clientId: string,
  timeoutMs: number,
  allowLoopback: boolean,
): Promise<BridgeClient | undefined> {
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const url = new URL(clientId);
    const host = hostOf(url);
    const addresses = await lookup(host, { all: true, verbatim: true });
    if (addresses.length === 0 || !addresses.every(({ address }) => isFetchableAddress(address, allowLoopback))) return undefined;
    const response = await get(url, host, addresses[0], signal);
    if (response.statusCode !== 200) {
      response.destroy();
      return undefined;
    }
    // Over the bound: BodyTooLargeError, undefined below like any other failure.
    const document = JSON.parse(await readBoundedText(response, MAX_DOCUMENT_BYTES, response.headers['content-length'])) as Record<
      string,
      unknown
    >;
    const client = document.client_id === clientId ? publicClient(clientId, document) : undefined;
    return client && 'error' in client ? undefined : client;
  } catch {
    return undefined;
  }
}

/** GET `url` from `pinned` (the Host header and TLS server name stay the URL's host); redirects are answers, not followed. */
function get(url: URL, host: string, pinned: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  const pin: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      headers: { Accept: 'application/json' },
      lookup: pin,
      // A connection of its own, closed after: never one pooled for another fetch of the same host.
      agent: false,
      signal,
      // SNI names the URL's host; an IP literal has none (and is not looked up: it was checked as is).
      ...(url.protocol === 'https:' && isIP(host) === 0 && { servername: host }),
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

/** The URL's host name, an IPv6 literal without its brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

const MAX_REDIRECT_URIS = 10;

/**
 * The public client (it proves itself with PKCE) that client metadata describes, registered (RFC 7591) or fetched
 * (a client ID metadata document), or the OAuth error that refuses it.
 */
export function publicClient(clientId: string, metadata: Record<string, unknown>): BridgeClient | { error: string; description: string } {
  const { redirect_uris: redirectUris, client_name: name, token_endpoint_auth_method: method } = metadata;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS)
    return { error: 'invalid_redirect_uri', description: `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs` };
  if (!redirectUris.every(isAcceptableRedirectUri))
    return {
      error: 'invalid_redirect_uri',
      description: 'each redirect URI must be https, or http on a loopback address, without a fragment',
    };
  // One claiming a secret-based method has no secret with this bridge.
  if (method !== undefined && method !== 'none')
    return {
      error: 'invalid_client_metadata',
      description: 'only public clients (token_endpoint_auth_method "none", with PKCE) are registered',
    };
  return {
    client_id: clientId,
    redirect_uris: redirectUris,
    ...(typeof name === 'string' && name !== '' && { client_name: name.slice(0, 200) }),
    client_id_issued_at: Math.floor(Date.now() / 1000),
  };
}
