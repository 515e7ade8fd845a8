import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { ApiKeyVerifier } from './api-key.verifier.js';
import { JwtVerifier } from './jwt.verifier.js';
import type { McpAuthOptions } from './mcp-auth-options.interface.js';
import { McpAuthError } from './mcp-auth.error.js';
import type { McpAuthenticator, McpCredentials } from './mcp-authenticator.interface.js';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/**
 * The built-in authenticator: `X-API-Key`, or `Authorization: Bearer` holding a JWT or an API key
 * (simple HTTP clients often send their API key as a Bearer token).
 */
export class CredentialsAuthenticator implements McpAuthenticator {
  private readonly jwt?: JwtVerifier;
  private readonly apiKeys?: ApiKeyVerifier;

  constructor(options: McpAuthOptions) {
    if (options.jwt) this.jwt = new JwtVerifier(options.jwt);
    if (options.apiKeys?.length) this.apiKeys = new ApiKeyVerifier(options.apiKeys);
  }

  async authenticate(credentials: McpCredentials): Promise<McpPrincipal | undefined> {
    if (credentials.apiKey !== undefined) return this.byApiKey(credentials.apiKey);
    const token = credentials.bearer;
    if (token === undefined) return undefined;
    if (this.jwt && JWT_SHAPE.test(token)) return this.jwt.verify(token);
    if (this.apiKeys) return this.byApiKey(token);
    throw new McpAuthError('INVALID_TOKEN', 'The access token is invalid');
  }

  private byApiKey(key: string): McpPrincipal {
    const principal = this.apiKeys?.verify(key);
    if (!principal) throw new McpAuthError('INVALID_TOKEN', 'The API key is invalid');
    return principal;
  }
}
