import { importPKCS8 } from 'jose';
import * as oauth from 'oauth4webapi';
import type { McpClientOAuthOptions, McpClientPreRegistration } from './mcp-client-auth-options.interface.js';
import { authError } from './oauth-http.js';
import { MAX_OAUTH_BODY_BYTES, withSecret, type McpOAuthClientIdentity } from './oauth-grant.js';
import { readBoundedText } from '../../core/bounded-text.js';
import { McpTokenVault } from './token-vault.js';

/** A dynamic registration as kept in the vault (per authorization server: never reused at another one). */
interface StoredRegistration {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly method: string;
}

/** How long a dynamic registration is kept when the server sets no expiry for its secret (30 days). */
const REGISTRATION_TTL_MS = 30 * 24 * 3600_000;

/**
 * Who the client is at `as`, in the MCP authorization spec's order: credentials registered beforehand (for this
 * issuer, or for any when they name none), else its client ID metadata document where the server supports them,
 * else a dynamic registration (RFC 7591) kept per issuer, else AUTH.
 */
export async function identityAt(
  as: oauth.AuthorizationServer,
  options: McpClientOAuthOptions,
  vault: McpTokenVault,
  requestOptions: () => oauth.DynamicClientRegistrationRequestOptions,
): Promise<McpOAuthClientIdentity> {
  const pre = options.client;
  if (pre && (pre.issuer === undefined || pre.issuer === as.issuer)) return preRegistered(as, pre);
  if (options.grant.type === 'client_credentials') {
    throw authError(`client_credentials needs credentials registered with ${new URL(as.issuer).origin}`);
  }
  if (options.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
    return { client: { client_id: options.clientMetadataUrl, token_endpoint_auth_method: 'none' }, auth: oauth.None() };
  }
  const key = McpTokenVault.keyOf('registration', as.issuer, options.grant.redirectUri);
  const stored = (await vault.get<StoredRegistration>(key)) ?? (await register(as, options, vault, key, requestOptions));
  return withSecret({ client_id: stored.clientId, token_endpoint_auth_method: stored.method }, stored.clientSecret, stored.method);
}

async function preRegistered(as: oauth.AuthorizationServer, pre: McpClientPreRegistration): Promise<McpOAuthClientIdentity> {
  if (pre.privateKey !== undefined) {
    const algorithm = pre.signingAlgorithm ?? 'ES256';
    const key = typeof pre.privateKey === 'string' ? await importPKCS8(pre.privateKey, algorithm) : pre.privateKey;
    return { client: { client_id: pre.clientId, token_endpoint_auth_method: 'private_key_jwt' }, auth: oauth.PrivateKeyJwt(key) };
  }
  const method = pre.tokenEndpointAuthMethod ?? secretMethod(as, pre.clientSecret);
  return withSecret({ client_id: pre.clientId, token_endpoint_auth_method: method }, pre.clientSecret, method);
}

/** With a secret: Basic where the server offers it (or lists nothing: RFC 8414's default), else post. */
function secretMethod(as: oauth.AuthorizationServer, secret: string | undefined): string {
  const offered = as.token_endpoint_auth_methods_supported;
  if (secret === undefined) return 'none';
  return !offered || offered.includes('client_secret_basic') || !offered.includes('client_secret_post')
    ? 'client_secret_basic'
    : 'client_secret_post';
}

/** A public client (PKCE) where the server allows it; a confidential one otherwise. */
function registrationMethod(as: oauth.AuthorizationServer): string {
  const offered = as.token_endpoint_auth_methods_supported;
  return !offered || offered.includes('none') ? 'none' : secretMethod(as, '');
}

async function register(
  as: oauth.AuthorizationServer,
  options: McpClientOAuthOptions,
  vault: McpTokenVault,
  key: string,
  requestOptions: () => oauth.DynamicClientRegistrationRequestOptions,
): Promise<StoredRegistration> {
  if (!as.registration_endpoint) {
    throw authError(`${new URL(as.issuer).origin} has no registration endpoint and no credentials were registered with it`);
  }
  const redirectUri = options.grant.type === 'authorization_code' ? options.grant.redirectUri : undefined;
  const method = registrationMethod(as);
  const loopback = redirectUri !== undefined && /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(redirectUri);
  let registered: oauth.OmitSymbolProperties<oauth.Client>;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: options.clientName ?? 'nest-mcp-client',
        redirect_uris: redirectUri ? [redirectUri] : [],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: method,
        application_type: loopback ? 'native' : 'web',
      },
      requestOptions(),
    );
    registered = await oauth.processDynamicClientRegistrationResponse(await withSecretExpiry(response));
  } catch {
    throw authError(`The dynamic registration at ${new URL(as.issuer).origin} failed`);
  }
  const stored: StoredRegistration = {
    clientId: registered.client_id,
    ...(typeof registered.client_secret === 'string' && { clientSecret: registered.client_secret }),
    method: typeof registered.token_endpoint_auth_method === 'string' ? registered.token_endpoint_auth_method : method,
  };
  const expiresAt = typeof registered.client_secret_expires_at === 'number' ? registered.client_secret_expires_at * 1000 : 0;
  await vault.set(key, stored, expiresAt > 0 ? expiresAt - Date.now() : REGISTRATION_TTL_MS);
  return stored;
}

/**
 * RFC 7591 requires `client_secret_expires_at` with a secret and oauth4webapi enforces it; servers that leave it
 * out (the conformance suite's among them) mean a secret that does not expire, which is what 0 says.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201) return response;
  const text = await readBoundedText(response.body, MAX_OAUTH_BODY_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new Response(text, { status: response.status, headers: response.headers });
  }
  const body = json as Record<string, unknown>;
  const patched = typeof body?.client_secret === 'string' && body.client_secret_expires_at === undefined;
  return new Response(patched ? JSON.stringify({ ...body, client_secret_expires_at: 0 }) : text, {
    status: 201,
    headers: { 'content-type': 'application/json' },
  });
}
