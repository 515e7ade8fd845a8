import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { ApiKeyVerifier } from './api-key.verifier.js';
import { JwtVerifier } from './jwt.verifier.js';
import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';
import { McpAuthError } from './mcp-auth.error.js';
import type { McpAuthenticator, McpCredentials } from '../options/mcp-authenticator.interface.js';
import type { McpOAuthBridge } from './bridge/oauth-bridge.js';
import { OAuthResourceServer } from './oauth/oauth-resource-server.js';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/** The built-in authenticator: `X-API-Key`, or a Bearer JWT, opaque OAuth token or API key (clients send keys as Bearer too). */
export class CredentialsAuthenticator implements McpAuthenticator {
  private readonly jwt?: JwtVerifier;
  private readonly oauth?: OAuthResourceServer;
  private readonly apiKeys?: ApiKeyVerifier;

  /** `servedResource` maps a configured resource URL to the one clients reach (the app's global prefix). */
  constructor(
    options: McpAuthOptions,
    servedResource: (resource: string) => string = (resource) => resource,
    private readonly bridge?: Pick<McpOAuthBridge, 'issued' | 'verify'>,
  ) {
    if (options.jwt) this.jwt = new JwtVerifier(options.jwt);
    if (options.oauth) this.oauth = new OAuthResourceServer(options.oauth, servedResource);
    if (options.apiKeys?.length) this.apiKeys = new ApiKeyVerifier(options.apiKeys);
  }

  /** Discovers the authorization server (boot). */
  async start(): Promise<void> {
    await this.oauth?.start();
  }

  async authenticate(credentials: McpCredentials): Promise<McpPrincipal | undefined> {
    if (credentials.apiKey !== undefined) return this.byApiKey(credentials.apiKey);
    const token = credentials.bearer;
    if (token === undefined) return undefined;
    if (JWT_SHAPE.test(token)) {
      if (this.bridge?.issued(token)) return this.bridge.verify(token);
      // Both configured: the token's (unverified) `iss` picks the verifier; each then checks everything.
      if (this.oauth && (!this.jwt || this.oauth.issued(token))) return this.oauth.verifyJwt(token, credentials.address);
      if (this.jwt) return this.jwt.verify(token);
    }
    const principal = this.apiKeys?.verify(token);
    if (principal) return principal;
    if (this.oauth?.introspects) return this.oauth.introspect(token, credentials.address);
    if (this.apiKeys) throw new McpAuthError('INVALID_TOKEN', 'The API key is invalid');
    throw new McpAuthError('INVALID_TOKEN', 'The access token is invalid');
  }

  private byApiKey(key: string): McpPrincipal {
    const principal = this.apiKeys?.verify(key);
    if (!principal) throw new McpAuthError('INVALID_TOKEN', 'The API key is invalid');
    return principal;
  }
}
