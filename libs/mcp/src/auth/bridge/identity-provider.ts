import { decodeJwt, type JWTPayload } from 'jose';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpOAuthBridgeUpstreamOptions } from '../../options/mcp-auth-options.interface.js';
import { fetchMetadata, metadataUrls } from '../oauth/authorization-server.metadata.js';
import { McpOAuthBridgeMessages as Messages } from './bridge.messages.js';

interface IdentityProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
}

/** Largest answer read from the provider. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Why the identity provider's leg failed; never shown with the provider's answer (it may echo secrets). */
export class IdentityProviderError extends Error {}

/**
 * The OpenID provider users sign in at: discovered at boot, then the authorization-code flow as a confidential
 * client (client_secret_basic) with PKCE and a nonce; the user is read from the ID token the provider returned over
 * the back channel (OpenID Connect Core §3.1.3.7: TLS authenticates it), completed by userinfo when offered.
 */
export class IdentityProvider {
  private metadata?: IdentityProviderMetadata;

  constructor(
    private readonly options: McpOAuthBridgeUpstreamOptions,
    private readonly timeoutMs: number,
  ) {}

  async start(): Promise<void> {
    const { issuer } = this.options;
    // OpenID discovery first: the identity provider is an OpenID provider.
    const document = await fetchMetadata<IdentityProviderMetadata>(metadataUrls(issuer).reverse(), this.timeoutMs);
    if (typeof document === 'string') throw new McpConfigurationError(Messages.identityProviderUnreachable(issuer, document));
    if (document.issuer !== issuer)
      throw new McpConfigurationError(
        Messages.identityProviderUnusable(issuer, `names the issuer "${String(document.issuer)}"; set the issuer to exactly that value`),
      );
    for (const key of ['authorization_endpoint', 'token_endpoint'] as const)
      if (typeof document[key] !== 'string' || !/^https?:\/\//.test(document[key]))
        throw new McpConfigurationError(Messages.identityProviderUnusable(issuer, `has no http(s) ${key}`));
    this.metadata = document as IdentityProviderMetadata;
  }

  /** Where the browser goes to sign in. */
  authorizationUrl(params: { state: string; nonce: string; codeChallenge: string; redirectUri: string; scopes: string[] }): string {
    const url = new URL(this.endpoints.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: params.redirectUri,
      scope: params.scopes.join(' '),
      state: params.state,
      nonce: params.nonce,
      code_challenge: params.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.href;
  }

  /** Exchanges the provider's code; the signed-in user's claims (`sub` at least). Throws IdentityProviderError. */
  async signedInUser(code: string, verifier: string, redirectUri: string, nonce: string): Promise<JWTPayload & { sub: string }> {
    const { clientId, clientSecret, issuer } = this.options;
    const answer = await this.post(
      this.endpoints.token_endpoint,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
      `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
    );
    if (typeof answer.id_token !== 'string') throw new IdentityProviderError('the provider returned no ID token');
    let claims: JWTPayload;
    try {
      claims = decodeJwt(answer.id_token);
    } catch {
      throw new IdentityProviderError('the provider returned a malformed ID token');
    }
    const audiences = [claims.aud].flat();
    if (
      claims.iss !== issuer ||
      !audiences.includes(clientId) ||
      claims.nonce !== nonce ||
      typeof claims.sub !== 'string' ||
      claims.sub === ''
    )
      throw new IdentityProviderError('the ID token is not for this sign-in');
    if ((claims.exp ?? 0) * 1000 < Date.now()) throw new IdentityProviderError('the ID token has expired');
    const userinfo = this.metadata?.userinfo_endpoint;
    if (userinfo && typeof answer.access_token === 'string') {
      const more = await this.get(userinfo, answer.access_token).catch(() => undefined);
      // Userinfo's claims count only when they are about the same subject (OpenID Connect Core §5.3.2).
      if (more && more.sub === claims.sub) claims = { ...more, ...claims };
    }
    return claims as JWTPayload & { sub: string };
  }

  private get endpoints(): IdentityProviderMetadata {
    if (!this.metadata) throw new IdentityProviderError('the provider is not discovered yet');
    return this.metadata;
  }

  private async post(url: string, form: Record<string, string>, authorization: string): Promise<Record<string, unknown>> {
    return this.read(
      await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', Authorization: authorization },
        body: new URLSearchParams(form),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      }),
    );
  }

  private async get(url: string, token: string): Promise<Record<string, unknown>> {
    return this.read(
      await fetch(url, {
        headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      }),
    );
  }

  private async read(response: Response): Promise<Record<string, unknown>> {
    const text = await response.text();
    if (!response.ok) throw new IdentityProviderError(`the provider answered HTTP ${response.status}`);
    if (text.length > MAX_ANSWER_BYTES) throw new IdentityProviderError('the provider answered too much');
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Below.
    }
    throw new IdentityProviderError('the provider answered no JSON object');
  }
}
