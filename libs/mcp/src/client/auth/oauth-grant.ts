import * as oauth from 'oauth4webapi';
import { readBoundedText } from '../../core/bounded-text.js';

/** Largest metadata or token answer read from an authorization server (64 KiB). */
export const MAX_OAUTH_BODY_BYTES = 64 * 1024;
/** RFC 8693 §2.1 and §3. */
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** How a client is known to one authorization server, and how it authenticates at its token endpoint. */
export type McpOAuthClientIdentity = { readonly client: oauth.Client; readonly auth: oauth.ClientAuth };

/** One grant at a token endpoint (McpClient's, the gateway's outbound credentials'); `callback`: the checked answer. */
export type McpTokenGrant =
  | { readonly type: 'client_credentials' }
  | { readonly type: 'refresh_token'; readonly refreshToken: string }
  | { readonly type: 'token_exchange'; readonly subjectToken: string }
  | { readonly type: 'authorization_code'; readonly callback: URLSearchParams; readonly redirectUri: string; readonly verifier: string };

/** The client authentication its method names: none, the secret in the body, or Basic. */
export function withSecret(client: oauth.Client, secret: string | undefined, method: string): McpOAuthClientIdentity {
  if (method === 'none' || secret === undefined) return { client, auth: oauth.None() };
  return { client, auth: method === 'client_secret_post' ? oauth.ClientSecretPost(secret) : clientSecretBasic(secret) };
}

/**
 * `client_secret_basic` with id and secret form-encoded as URLSearchParams writes them (RFC 6749 §2.3.1):
 * oauth4webapi's own also escapes `-`, `_` and `.`, which authorization servers that do not decode the pair (the
 * conformance suite's among them) then fail to match.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${Buffer.from(`${encode(client.client_id)}:${encode(secret)}`).toString('base64')}`);
  };
}

/** An `http:` URL was configured on purpose (a loopback or internal authorization server): oauth4webapi asks to be told. */
export function insecure(url: string | undefined): { [oauth.allowInsecureRequests]?: true } {
  return url?.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {};
}

/** Sends `grant` to the token endpoint of `as`; the answer is read bounded (64 KiB) before anything parses it. */
export async function sendGrant(
  as: oauth.AuthorizationServer,
  { client, auth }: McpOAuthClientIdentity,
  grant: McpTokenGrant,
  parameters: Record<string, string>,
  options: oauth.TokenEndpointRequestOptions,
): Promise<Response> {
  const extra = { ...options, additionalParameters: parameters };
  let response: Response;
  if (grant.type === 'authorization_code')
    response = await oauth.authorizationCodeGrantRequest(as, client, auth, grant.callback, grant.redirectUri, grant.verifier, extra);
  else if (grant.type === 'refresh_token') response = await oauth.refreshTokenGrantRequest(as, client, auth, grant.refreshToken, extra);
  else if (grant.type === 'client_credentials') response = await oauth.clientCredentialsGrantRequest(as, client, auth, parameters, options);
  else {
    const exchange = { subject_token: grant.subjectToken, subject_token_type: ACCESS_TOKEN_TYPE, requested_token_type: ACCESS_TOKEN_TYPE };
    response = await oauth.genericTokenEndpointRequest(as, client, auth, TOKEN_EXCHANGE_GRANT, { ...exchange, ...parameters }, options);
  }
  const text = await readBoundedText(response.body, MAX_OAUTH_BODY_BYTES);
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The authorization request of the code flow, PKCE S256: the endpoint's own query kept, `params` added. */
export async function authorizationUrl(endpoint: string, verifier: string, params: Record<string, string>): Promise<URL> {
  const url = new URL(endpoint);
  const pkce = { response_type: 'code', code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  for (const [name, value] of Object.entries({ ...pkce, ...params })) url.searchParams.set(name, value);
  return url;
}

/** The checked tokens of a {@link sendGrant} answer; with `nonce`, an ID token it carries is verified (nonce, signature). */
export async function tokensOf(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  grant: McpTokenGrant['type'],
  response: Response,
  nonce?: string,
  signal?: AbortSignal,
): Promise<oauth.TokenEndpointResponse> {
  if (grant !== 'authorization_code') return oauth.processGenericTokenEndpointResponse(as, client, response);
  // Read from a copy: the answer itself is processed after.
  const json = nonce === undefined ? undefined : await response.clone().text();
  const withIdToken = json !== undefined && (JSON.parse(json || '{}') as { id_token?: unknown }).id_token !== undefined;
  const checks = withIdToken ? { expectedNonce: nonce, requireIdToken: true } : {};
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, checks);
  if (withIdToken) await oauth.validateApplicationLevelSignature(as, response, { ...(signal && { signal }), ...insecure(as.jwks_uri) });
  return tokens;
}

/** The OAuth error code of a refusal (`invalid_grant`, …), never its description; a code not of `[a-z_]` is not repeated. */
export function refusalCode(error: unknown): string | undefined {
  if (!(error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError)) return undefined;
  return /^[a-z_]{1,64}$/.test(error.error) ? error.error : 'error';
}
