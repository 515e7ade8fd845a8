import * as oauth from 'oauth4webapi';
import { authorizationUrl, refusalCode, sendGrant, tokensOf, type McpOAuthClientIdentity } from './oauth-grant.js';
import { McpClientError } from '../mcp-client.error.js';
import { parseBearerChallenge } from './bearer-challenge.js';
import type { McpClientOAuthOptions } from './mcp-client-auth-options.interface.js';
import { identityAt } from './oauth-client-identity.js';
import { discoverAuthorizationServer, discoverProtectedResource, type McpProtectedResource } from './oauth-discovery.js';
import { authError } from './oauth-http.js';
import { requestedScopes, unionOfScopes } from './scope-selection.js';
import { McpTokenVault } from './token-vault.js';

/** What one request went through so far: a request authorizes again at most once, and steps up a bounded number of times. */
export interface McpAuthRound {
  unauthorized: number;
  stepUps: number;
}

/** A held token, as kept in the vault. */
interface HeldToken {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** ms since the epoch; undefined: the server said nothing. */
  readonly expiresAt?: number;
  readonly scope?: string;
  readonly issuer: string;
  readonly resource: string;
}

const DEFAULTS = { maxStepUps: 2, timeoutMs: 10_000 };
/** A token this close to its expiry is refreshed before it is sent. */
const REFRESH_MARGIN_MS = 30_000;
/** How long a token is kept without an expiry, or a refresh token past its access token (30 days). */
const LONG_TTL_MS = 30 * 24 * 3600_000;

/**
 * The OAuth 2.1 client of one MCP server URL: supplies the `Authorization` header of each request and answers the
 * server's 401 and 403 challenges (see {@link McpClientOAuthOptions}). Nothing it logs or throws carries a token.
 */
export class McpOAuthAuthorizer {
  private readonly vault: McpTokenVault;
  private readonly tokenKey: string;
  private held?: HeldToken | null;
  private readonly servers = new Map<string, Promise<oauth.AuthorizationServer>>();
  /** One authorization at a time: concurrent 401s share it rather than each sending the user to sign in. */
  private authorizing?: Promise<void>;

  constructor(
    private readonly options: McpClientOAuthOptions,
    private readonly serverUrl: URL,
    /** The URL is a 2024-11-05 SSE endpoint: the server's resource may be any URL beside it (its MCP endpoint). */
    private readonly sseEndpoint = false,
  ) {
    if (options.tokens?.store && options.tokens.encryptionKey === undefined) {
      throw new McpClientError('CONFIG', 'auth.tokens.store needs auth.tokens.encryptionKey: tokens are stored encrypted');
    }
    if (options.grant.type === 'client_credentials' && !options.client) {
      throw new McpClientError('CONFIG', 'auth.grant client_credentials needs auth.client (credentials registered beforehand)');
    }
    this.vault = new McpTokenVault(options.tokens?.store, options.tokens?.encryptionKey);
    this.tokenKey = McpTokenVault.keyOf('tokens', options.tokens?.principal ?? 'default', serverUrl.href);
  }

  /** The `Authorization` header value for the next request, refreshing a token about to expire; undefined without one. */
  async authorization(): Promise<string | undefined> {
    if (this.authorizing) await this.authorizing.catch(() => undefined);
    this.held ??= (await this.vault.get<HeldToken>(this.tokenKey)) ?? null;
    let held: HeldToken | undefined = this.held ?? undefined;
    if (held?.expiresAt !== undefined && held.expiresAt - REFRESH_MARGIN_MS < Date.now()) {
      held = held.refreshToken ? await this.refreshed(held).catch(() => undefined) : undefined;
      if (!held) await this.forget();
    }
    return held ? `Bearer ${held.accessToken}` : undefined;
  }

  /** Whether an answer is a challenge {@link challenge} acts on: a 401, or a 403 `insufficient_scope`. */
  wants(status: number, wwwAuthenticate: string | undefined): boolean {
    return status === 401 || (status === 403 && parseBearerChallenge(wwwAuthenticate)?.error === 'insufficient_scope');
  }

  /**
   * Answers a 401 (authorize, once per request) or a 403 `insufficient_scope` (authorize for the union of the
   * scopes, `maxStepUps` times per request); true when the request should be sent again. Other answers: false.
   * Throws AUTH when authorization fails or the step-ups are exhausted.
   */
  async challenge(status: number, wwwAuthenticate: string | undefined, round: McpAuthRound): Promise<boolean> {
    const challenge = parseBearerChallenge(wwwAuthenticate);
    if (status === 401) {
      if (round.unauthorized++ > 0) return false;
      await this.once(() => this.authorize(challenge?.resourceMetadata, challenge?.scope, false));
      return true;
    }
    if (status !== 403 || challenge?.error !== 'insufficient_scope') return false;
    if (round.stepUps++ >= (this.options.maxStepUps ?? DEFAULTS.maxStepUps)) {
      throw authError(`The server still refuses the scope after ${round.stepUps - 1} step-ups`, 403);
    }
    await this.once(() => this.authorize(challenge.resourceMetadata, challenge.scope, true));
    return true;
  }

  /**
   * One exchange, sent again after the challenge it met was answered (a 401, a 403 `insufficient_scope`); a second
   * 401 after authorizing fails with AUTH. The transports give their own answer type: how to read its challenge and
   * how to let go of its body.
   */
  async exchange<T extends { readonly status: number }>(
    send: () => Promise<T>,
    challengeOf: (answer: T) => string | undefined,
    discard: (answer: T) => unknown,
  ): Promise<T> {
    const round: McpAuthRound = { unauthorized: 0, stepUps: 0 };
    for (;;) {
      const answer = await send();
      const challenge = challengeOf(answer);
      if (!this.wants(answer.status, challenge)) return answer;
      await discard(answer);
      if (!(await this.challenge(answer.status, challenge, round))) {
        throw authError('The server refused the token it was just given', answer.status);
      }
    }
  }

  private once(run: () => Promise<void>): Promise<void> {
    this.authorizing ??= run().finally(() => (this.authorizing = undefined));
    return this.authorizing;
  }

  /** Discovery, client identity and a fresh token (or a refresh, after a 401 from a server that still trusts the same issuer). */
  private async authorize(resourceMetadata: string | undefined, challenged: string | undefined, stepUp: boolean): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULTS.timeoutMs;
    const insecure = this.options.allowInsecureHttp === true;
    const resource = await discoverProtectedResource(this.serverUrl, resourceMetadata, timeoutMs, insecure, this.sseEndpoint);
    const previous = this.held ?? undefined;
    await this.forget();
    if (!stepUp && previous?.refreshToken && previous.issuer === resource.authorizationServer && previous.resource === resource.resource) {
      if (await this.refreshed(previous).catch(() => undefined)) return;
    }
    const as = await this.metadataOf(resource);
    const identity = await identityAt(as, this.options, this.vault, () => this.requestOptions());
    let scope = requestedScopes(this.options, challenged, resource, as);
    if (stepUp) scope = unionOfScopes(previous?.scope, scope);
    const response =
      this.options.grant.type === 'authorization_code'
        ? await this.authorizationCode(as, identity, resource, scope)
        : await sendGrant(
            as,
            identity,
            { type: 'client_credentials' },
            { ...(scope && { scope }), resource: resource.resource },
            this.requestOptions(),
          );
    const tokens = await tokensOf(as, identity.client, this.options.grant.type, response).catch((error: unknown) => {
      throw authError(`The token request to ${new URL(as.issuer).origin} was refused${oauthReason(error)}`);
    });
    await this.keep(tokens, scope, as.issuer, resource.resource);
  }

  /** Authorization code with PKCE (S256) and the resource indicator; the callback is checked for `state` and `iss` (RFC 9207). */
  private async authorizationCode(
    as: oauth.AuthorizationServer,
    identity: McpOAuthClientIdentity,
    resource: McpProtectedResource,
    scope: string | undefined,
  ): Promise<Response> {
    const grant = this.options.grant;
    if (grant.type !== 'authorization_code') throw authError('not an authorization code grant');
    if (!as.authorization_endpoint) throw authError(`${new URL(as.issuer).origin} has no authorization endpoint`);
    if (!as.code_challenge_methods_supported?.includes('S256')) {
      throw authError(`${new URL(as.issuer).origin} does not support PKCE with S256`);
    }
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = await authorizationUrl(as.authorization_endpoint, verifier, {
      client_id: identity.client.client_id,
      redirect_uri: grant.redirectUri,
      state,
      resource: resource.resource,
      ...(scope && { scope }),
    });
    const callback = new URL(await grant.authorize(url));
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, identity.client, callback, state);
    } catch (error) {
      throw authError(`The authorization response was rejected${oauthReason(error)}`);
    }
    const code = { type: 'authorization_code', callback: params, redirectUri: grant.redirectUri, verifier } as const;
    return sendGrant(as, identity, code, { resource: resource.resource }, this.requestOptions());
  }

  private async refreshed(held: HeldToken): Promise<HeldToken | undefined> {
    const insecure = this.options.allowInsecureHttp === true;
    const as = await this.metadataOf({ authorizationServer: held.issuer, legacy: false, resource: held.resource }, insecure);
    const identity = await identityAt(as, this.options, this.vault, () => this.requestOptions());
    const refresh = { type: 'refresh_token', refreshToken: held.refreshToken! } as const;
    const response = await sendGrant(as, identity, refresh, { resource: held.resource }, this.requestOptions());
    const tokens = await tokensOf(as, identity.client, 'refresh_token', response);
    return this.keep(tokens, held.scope, held.issuer, held.resource, held.refreshToken);
  }

  private async keep(tokens: oauth.TokenEndpointResponse, scope: string | undefined, issuer: string, resource: string, refresh?: string) {
    const expiresAt = typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined;
    const refreshToken = tokens.refresh_token ?? refresh;
    const held: HeldToken = {
      accessToken: tokens.access_token,
      ...(refreshToken && { refreshToken }),
      ...(expiresAt !== undefined && { expiresAt }),
      ...((tokens.scope ?? scope) && { scope: tokens.scope ?? scope }),
      issuer,
      resource,
    };
    this.held = held;
    const ttl = refreshToken || expiresAt === undefined ? LONG_TTL_MS : expiresAt - Date.now();
    await this.vault.set(this.tokenKey, held, ttl);
    return held;
  }

  private async forget(): Promise<void> {
    this.held = null;
    await this.vault.delete(this.tokenKey);
  }

  private metadataOf(
    resource: Pick<McpProtectedResource, 'authorizationServer' | 'legacy' | 'resource'>,
    insecure = this.options.allowInsecureHttp === true,
  ) {
    const issuer = resource.authorizationServer;
    let found = this.servers.get(issuer);
    if (!found) {
      found = discoverAuthorizationServer(issuer, resource.legacy, this.options.timeoutMs ?? DEFAULTS.timeoutMs, insecure);
      found.catch(() => this.servers.delete(issuer));
      this.servers.set(issuer, found);
    }
    return found;
  }

  private requestOptions(): oauth.TokenEndpointRequestOptions & oauth.DynamicClientRegistrationRequestOptions {
    return {
      signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULTS.timeoutMs),
      ...(this.options.allowInsecureHttp === true && { [oauth.allowInsecureRequests]: true }),
    };
  }
}

/** The OAuth error code of a refusal, or what oauth4webapi found wrong in an answer; never a description or a token. */
function oauthReason(error: unknown): string {
  const code = error instanceof oauth.OperationProcessingError ? error.message : refusalCode(error);
  return code === undefined ? '' : ` (${code})`;
}
