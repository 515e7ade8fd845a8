import * as oauth from 'oauth4webapi';
import { BodyTooLargeError } from '../../core/bounded-text.js';
import { authorizationUrl, refusalCode, sendGrant, tokensOf, type McpOAuthClientIdentity, type McpTokenGrant } from './oauth-grant.js';
import { McpClientError } from '../mcp-client.error.js';
import type { McpHttpAnswer } from '../transports/http-pool.js';
import { parseBearerChallenge } from './bearer-challenge.js';
import type { McpClientAuthorizationCodeGrant, McpClientOAuthOptions } from './mcp-client-auth-options.interface.js';
import { identityAt } from './oauth-client-identity.js';
import { discoverAuthorizationServer, discoverProtectedResource, type McpProtectedResource } from './oauth-discovery.js';
import { authError } from './oauth-http.js';
import { requestedScopes, unionOfScopes } from './scope-selection.js';
import { McpTokenVault } from './token-vault.js';

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

  /**
   * One exchange, sent again after the challenge it met was answered: a 401 by authorizing (once per exchange: a
   * second 401 fails with AUTH), a 403 `insufficient_scope` by authorizing for the union of the scopes (`maxStepUps`
   * times per exchange, then AUTH). Any other answer is returned as it is.
   */
  async exchange(send: () => Promise<McpHttpAnswer>): Promise<McpHttpAnswer> {
    let unauthorized = 0;
    let stepUps = 0;
    for (;;) {
      const answer = await send();
      const challenge = parseBearerChallenge(answer.header('www-authenticate'));
      const stepUp = answer.status === 403 && challenge?.error === 'insufficient_scope';
      if (answer.status !== 401 && !stepUp) return answer;
      answer.discard();
      if (!stepUp && unauthorized++ > 0) throw authError('The server refused the token it was just given', 401);
      if (stepUp && stepUps++ >= (this.options.maxStepUps ?? DEFAULTS.maxStepUps)) {
        throw authError(`The server still refuses the scope after ${stepUps - 1} step-ups`, 403);
      }
      await this.once(() => this.authorize(challenge?.resourceMetadata, challenge?.scope, stepUp));
    }
  }

  private once(run: () => Promise<void>): Promise<void> {
    this.authorizing ??= run().finally(() => (this.authorizing = undefined));
    return this.authorizing;
  }

  /** Discovery, client identity and a fresh token (or a refresh, after a 401 from a server that still trusts the same issuer). */
  private async authorize(resourceMetadata: string | undefined, challenged: string | undefined, stepUp: boolean): Promise<void> {
    const insecure = this.options.allowInsecureHttp === true;
    const resource = await discoverProtectedResource(this.serverUrl, resourceMetadata, this.timeoutMs, insecure, this.sseEndpoint);
    const previous = this.held ?? undefined;
    await this.forget();
    if (!stepUp && previous?.refreshToken && previous.issuer === resource.authorizationServer && previous.resource === resource.resource) {
      if (await this.refreshed(previous).catch(() => undefined)) return;
    }
    const as = await this.metadataOf(resource.authorizationServer, resource.legacy);
    const identity = await identityAt(as, this.options, this.vault, () => this.requestOptions());
    let scope = requestedScopes(this.options, challenged, resource, as);
    if (stepUp) scope = unionOfScopes(previous?.scope, scope);
    const grant = this.options.grant;
    const code = grant.type === 'authorization_code' ? await this.signIn(grant, as, identity, resource, scope) : undefined;
    const parameters = { ...(!code && scope && { scope }), resource: resource.resource };
    const tokens = await this.grant(as, identity, code ?? { type: 'client_credentials' }, parameters);
    await this.keep(tokens, scope, as.issuer, resource.resource);
  }

  /**
   * The user's sign-in: authorization code with PKCE (S256) and the resource indicator; the callback is checked for
   * `state` and `iss` (RFC 9207). Answers the code grant to send.
   */
  private async signIn(
    grant: McpClientAuthorizationCodeGrant,
    as: oauth.AuthorizationServer,
    identity: McpOAuthClientIdentity,
    resource: McpProtectedResource,
    scope: string | undefined,
  ): Promise<McpTokenGrant> {
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
    try {
      const params = oauth.validateAuthResponse(as, identity.client, callback, state);
      return { type: 'authorization_code', callback: params, redirectUri: grant.redirectUri, verifier };
    } catch (error) {
      throw authError(`The authorization response was rejected${oauthReason(error)}`);
    }
  }

  private async refreshed(held: HeldToken): Promise<HeldToken | undefined> {
    const as = await this.metadataOf(held.issuer);
    const identity = await identityAt(as, this.options, this.vault, () => this.requestOptions());
    const tokens = await this.grant(as, identity, { type: 'refresh_token', refreshToken: held.refreshToken! }, { resource: held.resource });
    return this.keep(tokens, held.scope, held.issuer, held.resource, held.refreshToken);
  }

  /** One grant at the token endpoint of `as` and its checked tokens; a refusal, or an answer over 64 KiB, is AUTH. */
  private async grant(
    as: oauth.AuthorizationServer,
    identity: McpOAuthClientIdentity,
    grant: McpTokenGrant,
    parameters: Record<string, string>,
  ): Promise<oauth.TokenEndpointResponse> {
    const origin = new URL(as.issuer).origin;
    const response = await sendGrant(as, identity, grant, parameters, this.requestOptions()).catch((error: unknown) => {
      throw error instanceof BodyTooLargeError ? authError(`The token answer of ${origin} exceeds ${error.limit} bytes`) : error;
    });
    return tokensOf(as, identity.client, grant.type, response).catch((error: unknown) => {
      throw authError(`The token request to ${origin} was refused${oauthReason(error)}`);
    });
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

  private metadataOf(issuer: string, legacy = false) {
    let found = this.servers.get(issuer);
    if (!found) {
      found = discoverAuthorizationServer(issuer, legacy, this.timeoutMs, this.options.allowInsecureHttp === true);
      found.catch(() => this.servers.delete(issuer));
      this.servers.set(issuer, found);
    }
    return found;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULTS.timeoutMs;
  }

  private requestOptions(): oauth.TokenEndpointRequestOptions & oauth.DynamicClientRegistrationRequestOptions {
    return {
      signal: AbortSignal.timeout(this.timeoutMs),
      ...(this.options.allowInsecureHttp === true && { [oauth.allowInsecureRequests]: true }),
    };
  }
}

/** The OAuth error code of a refusal, or what oauth4webapi found wrong in an answer; never a description or a token. */
function oauthReason(error: unknown): string {
  const code = error instanceof oauth.OperationProcessingError ? error.message : refusalCode(error);
  return code === undefined ? '' : ` (${code})`;
}
