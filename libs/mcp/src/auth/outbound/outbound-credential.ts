import { createHash } from 'node:crypto';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import type { McpOAuthClientOptions, McpOutboundAuth } from '../../options/mcp-outbound-auth.interface.js';
import { McpOutboundMessages as Messages } from './outbound.messages.js';
import { OAuthTokenClient } from './oauth-token.client.js';
import { OutboundTokenError } from './outbound-token.error.js';
import { OutboundTokenCache } from './outbound-token.cache.js';
import { isMcpAuthorizationCodeAuth } from '../../options/authorization-code-auth.js';

const DEFAULT_MAX_CACHED = 1_000;
const OWN = 'own';

/** How a call to another service is authenticated: `auth` of an upstream or an OpenAPI source, or forwarding. */
export interface OutboundCredentialSettings {
  readonly auth?: McpOutboundAuth;
  /** Passes the caller's own `Authorization` on (one trust domain). */
  readonly forwardAuthorization?: boolean;
}

/**
 * The `Authorization` one call sends to another service (`target` names it in messages): the caller's own
 * (forwarded), one exchanged for it (RFC 8693, cached per caller token), this server's own (client credentials), or
 * none. Each call gets its own: nothing here is shared between callers but the authorization server's metadata.
 */
export class OutboundCredential {
  private readonly client?: OAuthTokenClient;
  private readonly cache?: OutboundTokenCache;
  private readonly exchanges: boolean;
  /** `authorizationCode`: each user's own token (the upstream's user authorization), this server's for its own connection. */
  readonly perUser: boolean;

  constructor(
    private readonly settings: OutboundCredentialSettings,
    private readonly target: string,
  ) {
    const auth = settings.auth;
    const oauth =
      auth && ('tokenExchange' in auth ? auth.tokenExchange : 'clientCredentials' in auth ? auth.clientCredentials : ownOf(auth));
    this.exchanges = auth !== undefined && 'tokenExchange' in auth;
    this.perUser = isMcpAuthorizationCodeAuth(auth);
    if (oauth) {
      this.client = new OAuthTokenClient(oauth);
      this.cache = new OutboundTokenCache(oauth.maxCachedTokens ?? DEFAULT_MAX_CACHED);
    }
  }

  /** The credential is the caller's (forwarded or exchanged): what it opens upstream belongs to that caller alone. */
  get perCaller(): boolean {
    return this.exchanges || this.perUser || this.settings.forwardAuthorization === true;
  }

  /**
   * This server's own header value, for what it does for nobody in particular (an upstream's listing, its pings):
   * its client credentials token when `auth` is set, else none.
   */
  async ownAuthorization(): Promise<string | undefined> {
    return this.client ? `Bearer ${await this.token(OWN, () => this.client!.clientCredentials())}` : undefined;
  }

  /** The header value for one call whose caller sent `callerAuthorization`; throws an McpToolError when none can be had. */
  async authorization(callerAuthorization: string | undefined): Promise<string | undefined> {
    if (!this.client || this.perUser) return this.settings.forwardAuthorization ? callerAuthorization : undefined;
    if (!this.exchanges) return `Bearer ${await this.token(OWN, () => this.client!.clientCredentials())}`;
    const subjectToken = /^Bearer\s+(\S+)$/i.exec(callerAuthorization ?? '')?.[1];
    if (subjectToken === undefined) throw new McpToolError('UNAUTHORIZED', Messages.noCallerToken(this.target));
    // Keyed by a digest: the cache holds no caller token.
    const key = createHash('sha256').update(subjectToken).digest('base64url');
    return `Bearer ${await this.token(key, () => this.client!.exchange(subjectToken))}`;
  }

  private async token(key: string, mint: () => ReturnType<OAuthTokenClient['exchange']>): Promise<string> {
    try {
      return await this.cache!.get(key, mint);
    } catch (error) {
      const refused = error instanceof OutboundTokenError && error.kind === 'refused';
      const why = error instanceof OutboundTokenError ? error.message : 'too many token requests at once';
      throw refused
        ? new McpToolError('UNAUTHORIZED', Messages.tokenFailed(this.target, why))
        : new McpToolError('UNAVAILABLE', Messages.tokenFailed(this.target, why), { retryable: true, retryAfterMs: 1_000 });
    }
  }
}

/**
 * Per-user authorization's client, as this server itself (client credentials, for its own connection): the scopes a
 * user grants to keep signing in (`openid`, `offline_access`) mean nothing to that grant.
 */
function ownOf(auth: { authorizationCode: McpOAuthClientOptions }): McpOAuthClientOptions {
  const { issuer, clientId, clientSecret, clientAuthMethod, resource, scopes, timeoutMs } = auth.authorizationCode;
  const own = scopes?.filter((scope) => scope !== 'openid' && scope !== 'offline_access');
  return { issuer, clientId, clientSecret, clientAuthMethod, resource, scopes: own, timeoutMs };
}
