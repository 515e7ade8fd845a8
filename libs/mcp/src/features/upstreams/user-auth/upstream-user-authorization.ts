import { createHash, randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { McpUserAuthorizationOptions } from '../../../options/mcp-outbound-auth.interface.js';
import { described, discovered, usedUntil } from '../../../auth/outbound/oauth-token.client.js';
import { authorizationUrl, insecure, sendGrant, tokensOf, withSecret } from '../../../client/auth/oauth-grant.js';
import type { McpOAuthClientIdentity, McpTokenGrant } from '../../../client/auth/oauth-grant.js';
import { OutboundTokenError } from '../../../auth/outbound/outbound-token.error.js';
import { McpTokenVault } from '../../../client/auth/token-vault.js';
import { McpToolError } from '../../../core/errors/mcp-tool.error.js';
import type { McpKeyValueStore } from '../../../stores/key-value.store.js';
import { USER_AUTH_ROUTE, type McpUserAuthReply } from '../../../core/upstream-user-auth.port.js';
import { UserAuthorizationMessages as Messages } from './user-authorization.messages.js';
import { confirmsUser } from './user-confirmation.js';

/** The user an upstream connection belongs to: a subject of a tenant. */
export interface UpstreamUser {
  readonly tenant: string;
  readonly subject: string;
}

/** One user's upstream tokens, as sealed in the store. */
interface UserTokens {
  readonly access: string;
  readonly refresh?: string;
  /** When the access token stops being sent (ms since the epoch), shortly before it expires. */
  readonly until: number;
}

/**
 * A flow in progress: whose, its PKCE verifier and, when the user who completes it is confirmed, the ID token's
 * expected nonce (sealed in the store, under the digest of its `state`).
 */
interface PendingFlow extends UpstreamUser {
  readonly verifier: string;
  readonly nonce?: string;
}

const DEFAULT_FLOW_TTL_MS = 10 * 60_000;
const DEFAULT_CONNECTION_TTL_MS = 30 * 24 * 3_600_000;
const TIMEOUT_MS = 5_000;
const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('base64url');
const random = () => randomBytes(32).toString('base64url');

/**
 * Per-user authorization of one upstream (`auth.authorizationCode`): the links handed out (an opaque, single-use,
 * expiring ticket bound to the user), the authorization code flow they start (PKCE S256, the upstream's resource
 * indicator, `state` single-use and bound to the same user, the RFC 9207 `iss` checked, and unless `confirmUser` is
 * `'unverified'` the person who signed in confirmed to be that user by the verified ID token), and each user's tokens,
 * sealed in the store (AES-256-GCM), refreshed once per user at a time, revoked on disconnect.
 */
export class UpstreamUserAuthorization {
  private readonly vault: McpTokenVault;
  private readonly identity: McpOAuthClientIdentity;
  private readonly flowTtlMs: number;
  private readonly connectionTtlMs: number;
  /** The authorization server's metadata, read once (again after a failure). */
  private readonly metadata: () => Promise<oauth.AuthorizationServer>;
  /** Refreshes in flight, one per user. */
  private readonly refreshing = new Map<string, Promise<UserTokens | undefined>>();

  constructor(
    private readonly upstream: string,
    /** Its `resource` resolved: the upstream's URL unless told. */
    private readonly options: McpUserAuthorizationOptions & { readonly resource: string },
    private readonly store: McpKeyValueStore,
  ) {
    this.vault = new McpTokenVault(store, options.encryptionKey);
    this.identity = withSecret({ client_id: options.clientId }, options.clientSecret, options.clientAuthMethod ?? 'client_secret_basic');
    this.metadata = discovered(options.issuer, TIMEOUT_MS);
    this.flowTtlMs = options.flowTtlMs ?? DEFAULT_FLOW_TTL_MS;
    this.connectionTtlMs = options.connectionTtlMs ?? DEFAULT_CONNECTION_TTL_MS;
  }

  /** `confirmUser: 'unverified'`: whoever completes a user's link connects their account for that user. */
  get unverified(): boolean {
    return this.options.confirmUser === 'unverified';
  }

  /** The redirect URI registered at the authorization server for this upstream. */
  get redirectUri(): string {
    return `${this.options.publicUrl.replace(/\/$/, '')}/${USER_AUTH_ROUTE}/${this.upstream}/callback`;
  }

  /** The user's `Authorization` for the upstream, refreshed when it nears expiry; undefined while not connected. */
  authorization(user: UpstreamUser): Promise<string | undefined> {
    return this.current(user, (tokens) => tokens.until <= Date.now());
  }

  /**
   * The upstream refused `authorization` (401) before it expired (revoked, its key rotated): that access token is
   * dropped for a refreshed one (unless another call of the same user replaced it already); undefined when there is
   * none (the user connects again).
   */
  refused(user: UpstreamUser, authorization: string): Promise<string | undefined> {
    return this.current(user, (tokens) => `Bearer ${tokens.access}` === authorization);
  }

  /** A link at this server that starts the flow for `user`: its ticket is single-use and expires with the flow. */
  async link(user: UpstreamUser): Promise<string> {
    const ticket = random();
    await this.vault.set(this.key('ticket', ticket), { tenant: user.tenant, subject: user.subject }, this.flowTtlMs);
    return `${this.options.publicUrl.replace(/\/$/, '')}/${USER_AUTH_ROUTE}/${this.upstream}/start?ticket=${ticket}`;
  }

  /** `GET …/start?ticket=`: takes the ticket (once) and sends the browser to the authorization endpoint. */
  async start(ticket: string | null): Promise<McpUserAuthReply> {
    const user = ticket ? await this.take<UpstreamUser>(this.key('ticket', ticket)) : undefined;
    if (!user) return { status: 400, page: Messages.linkUsed(this.upstream) };
    const server = await this.metadata();
    if (!server.authorization_endpoint) return { status: 502, page: Messages.noAuthorizationEndpoint(this.upstream) };
    const state = random();
    const verifier = oauth.generateRandomCodeVerifier();
    const confirming = !this.unverified;
    const nonce = confirming ? random() : undefined;
    const flow: PendingFlow = { tenant: user.tenant, subject: user.subject, verifier, ...(nonce && { nonce }) };
    await this.vault.set(this.key('state', state), flow, this.flowTtlMs);
    const asked = this.options.scopes ?? [];
    // Confirming who signed in takes an ID token: OpenID Connect.
    const scopes = confirming && !asked.includes('openid') ? ['openid', ...asked] : asked;
    const url = await authorizationUrl(server.authorization_endpoint, verifier, {
      client_id: this.options.clientId,
      redirect_uri: this.redirectUri,
      state,
      resource: this.options.resource,
      ...(scopes.length > 0 && { scope: scopes.join(' ') }),
      ...(nonce && { nonce }),
      // OpenID Connect issues a refresh token for offline_access only after consent asked for it.
      ...(scopes.includes('offline_access') && { prompt: 'consent' }),
    });
    return { redirect: url.href };
  }

  /**
   * `GET …/callback`: takes the flow of `state` (once), checks the answer (`iss` too), confirms that the person who
   * signed in is the flow's user (`confirmUser`; else 403 and nothing kept) and keeps the user's tokens.
   */
  async callback(url: URL): Promise<McpUserAuthReply> {
    const state = url.searchParams.get('state');
    const flow = state ? await this.take<PendingFlow>(this.key('state', state)) : undefined;
    // A flow started without a nonce (before confirmUser was set) cannot be confirmed: it starts again.
    if (!flow || !state || (!this.unverified && flow.nonce === undefined))
      return { status: 400, page: Messages.flowUnknown(this.upstream) };
    const server = await this.metadata();
    let params: URLSearchParams;
    try {
      // The state, and the RFC 9207 `iss` naming this authorization server (required when its metadata says so).
      params = oauth.validateAuthResponse(server, this.identity.client, url, state);
    } catch {
      return { status: 400, page: Messages.refused(this.upstream) };
    }
    try {
      const code = { type: 'authorization_code', callback: params, redirectUri: this.redirectUri, verifier: flow.verifier } as const;
      const answer = await this.grant(server, code, flow.nonce);
      // Without an ID token (a plain OAuth 2.0 server) the sign-in cannot be confirmed: what was issued is revoked.
      const confirming = flow.nonce !== undefined;
      if (confirming && answer.id_token === undefined) {
        await this.revoke(server, answer.refresh_token ?? answer.access_token);
        return { status: 502, page: Messages.noIdToken(this.upstream) };
      }
      if (confirming && !(await this.confirmed(answer, flow))) {
        await this.revoke(server, answer.refresh_token ?? answer.access_token);
        return { status: 403, page: Messages.otherUser(this.upstream) };
      }
      await this.keep(this.key('tokens', flow.tenant, flow.subject), answer);
    } catch (error) {
      const why =
        error instanceof oauth.ResponseBodyError || error instanceof OutboundTokenError
          ? described(error).message
          : 'the answer was not valid';
      return { status: 502, page: Messages.failed(this.upstream, why) };
    }
    return { status: 200, page: Messages.connected(this.upstream) };
  }

  /** Forgets the user's connection, revoking its refresh token (else access token) where the server can. */
  async disconnect(user: UpstreamUser): Promise<boolean> {
    const key = this.key('tokens', user.tenant, user.subject);
    const tokens = await this.vault.get<UserTokens>(key);
    await this.vault.delete(key);
    if (!tokens) return false;
    await this.revoke(await this.metadata().catch(() => undefined), tokens.refresh ?? tokens.access);
    return true;
  }

  /**
   * The ID token (its `iss`, `aud`, `exp` and nonce checked by oauth4webapi) signed by the authorization server's
   * keys, and the person it names accepted as the flow's user by `confirmUser`.
   */
  private async confirmed(answer: oauth.TokenEndpointResponse, flow: PendingFlow) {
    const claims = oauth.getValidatedIdTokenClaims(answer);
    const confirm = this.options.confirmUser;
    return claims !== undefined && confirm !== 'unverified' && confirmsUser(confirm, flow, { ...claims });
  }

  /** Revokes a token where the server can; forgotten here all the same when it cannot (no longer used by this server). */
  private async revoke(server: oauth.AuthorizationServer | undefined, token: string): Promise<void> {
    if (!server?.revocation_endpoint) return;
    try {
      const response = await oauth.revocationRequest(server, this.identity.client, this.identity.auth, token, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...insecure(server.revocation_endpoint),
      });
      await oauth.processRevocationResponse(response);
    } catch {
      // Not revoked: no longer kept here all the same.
    }
  }

  /** The user's access token as an `Authorization`, refreshed first when `stale`; undefined while not connected. */
  private async current(user: UpstreamUser, stale: (tokens: UserTokens) => boolean): Promise<string | undefined> {
    const key = this.key('tokens', user.tenant, user.subject);
    const tokens = await this.vault.get<UserTokens>(key);
    const fresh = tokens && stale(tokens) ? await this.refreshOnce(key, tokens) : tokens;
    return fresh && `Bearer ${fresh.access}`;
  }

  /** Refreshes the tokens under `key`, one refresh per user at a time (the others wait for its answer). */
  private refreshOnce(key: string, tokens: UserTokens): Promise<UserTokens | undefined> {
    let flight = this.refreshing.get(key);
    if (!flight) {
      flight = this.refresh(key, tokens).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, flight);
    }
    return flight;
  }

  private async refresh(key: string, tokens: UserTokens): Promise<UserTokens | undefined> {
    if (!tokens.refresh) {
      await this.vault.delete(key);
      return undefined;
    }
    let answer: oauth.TokenEndpointResponse;
    try {
      answer = await this.grant(await this.metadata(), { type: 'refresh_token', refreshToken: tokens.refresh });
    } catch (error) {
      const failure = described(error);
      if (failure.kind === 'refused') {
        // Revoked or expired: the user connects again.
        await this.vault.delete(key);
        return undefined;
      }
      throw new McpToolError('UNAVAILABLE', Messages.tokenFailed(this.upstream, failure.message), { retryable: true, retryAfterMs: 1_000 });
    }
    return this.keep(key, answer, tokens.refresh);
  }

  private async keep(key: string, answer: oauth.TokenEndpointResponse, previousRefresh?: string): Promise<UserTokens> {
    const tokens: UserTokens = {
      access: answer.access_token,
      // A server that does not rotate refresh tokens answers none: the one held stays good.
      refresh: answer.refresh_token ?? previousRefresh,
      until: usedUntil(answer),
    };
    await this.vault.set(key, tokens, this.connectionTtlMs);
    return tokens;
  }

  /** One grant at the token endpoint, with the upstream's resource indicator. */
  private async grant(server: oauth.AuthorizationServer, grant: McpTokenGrant, nonce?: string) {
    const sent = { signal: AbortSignal.timeout(TIMEOUT_MS), ...insecure(server.token_endpoint) };
    const response = await sendGrant(server, this.identity, grant, { resource: this.options.resource }, sent);
    return tokensOf(server, this.identity.client, grant.type, response, nonce, sent.signal);
  }

  /** Reads and deletes a value in one step no other taker can share (a ticket, a flow's state: single use). */
  private async take<T>(key: string): Promise<T | undefined> {
    const stored = await this.store.get<unknown>(key);
    if (stored === undefined || !(await this.store.deleteIfEquals(key, stored))) return undefined;
    return this.vault.open<T>(stored);
  }

  /** The store key of a ticket, a flow's state or a user's tokens (`tenant`, `subject`): a digest, never the value. */
  private key(kind: 'ticket' | 'state' | 'tokens', ...parts: string[]): string {
    return `mcp:upstream-auth:${kind}:${this.upstream}:${digest(...parts)}`;
  }
}
