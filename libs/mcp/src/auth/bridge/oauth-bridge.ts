import { createHmac, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { OAUTH_BRIDGE_DEFAULTS } from '../../options/declarations/auth.options.js';
import type { McpKeyValueStore } from '../../stores/key-value.store.js';
import type { McpOAuthBridgeOptions } from '../../options/mcp-auth-options.interface.js';
import { McpAuthError } from '../mcp-auth.error.js';
import { McpAuthUnavailableError } from '../mcp-auth-unavailable.error.js';
import { principalFromClaims } from '../principal-claims.js';
import { addressKey, CallerBudget } from '../caller-budget.js';
import { BridgeGrants, randomToken, sha256, type BridgeClient, type BridgeGrant, type BridgeUser } from './bridge-grants.js';
import { errorPage, json, oauthError, page, redirect, tooMany, type BridgeReply, type BridgeRequest } from './bridge-reply.js';
import { consentPage } from './consent.page.js';
import { fetchClientMetadataDocument, isClientIdUrl, publicClient } from './client-metadata-document.js';
import { isS256Challenge, s256, verifierMatches } from './pkce.js';
import { IdentityProvider } from './identity-provider.js';
import { mappedScopes, userScopes } from './user-scopes.js';

/** The cookie that binds an authorization to the browser that started it. */
export const BROWSER_COOKIE = 'mcp_bridge_browser';
/** Where the bridge's endpoints live under its issuer. */
export const BRIDGE_BASE_PATH = '/oauth';
const CLIENT_TTL_MS = 90 * 86_400_000;
/** A registration with no completed sign-in lives this long (a sign-in in progress lasts 10 minutes at most). */
const PENDING_CLIENT_TTL_MS = 15 * 60_000;
/** Registrations pending at once, whoever made them: anonymous registrations hold at most this much of the store. */
const MAX_PENDING_CLIENTS = 1_000;
const MAX_TEXT = 2_000;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The authorization server MCP clients see, in front of an OpenID provider without client registration: the flows
 * over plain requests and replies (the HTTP transport routes them). Its access tokens are HS256 JWTs for this
 * resource; each names its grant (`gid`), and a token whose grant was revoked is refused.
 */
export class McpOAuthBridge {
  readonly issuer: string;
  private readonly resource: string;
  private readonly identityProvider: IdentityProvider;
  private readonly grants: BridgeGrants;
  private readonly key: Uint8Array;
  private readonly accessTokenTtlMs: number;
  /** Per caller address and per registered client, and in total: registrations, sign-ins started, document fetches. */
  private readonly budgets: Record<'register' | 'authorize' | 'document', CallerBudget>;

  /** `toolScopes`: the scopes tools require, listed in the metadata beside those the mapping grants. */
  constructor(
    private readonly options: McpOAuthBridgeOptions,
    store: McpKeyValueStore,
    private readonly toolScopes: () => string[],
  ) {
    this.issuer = String(options.issuer);
    this.resource = String(options.resource);
    this.identityProvider = new IdentityProvider(options.upstream, options.timeoutMs ?? OAUTH_BRIDGE_DEFAULTS.timeoutMs);
    this.grants = new BridgeGrants(store, {
      clientTtlMs: CLIENT_TTL_MS,
      grantTtlMs: options.refreshTokenTtlMs ?? OAUTH_BRIDGE_DEFAULTS.refreshTokenTtlMs,
      maxGrantsPerTenant: options.maxGrantsPerTenant ?? OAUTH_BRIDGE_DEFAULTS.maxGrantsPerTenant,
      pendingClientTtlMs: PENDING_CLIENT_TTL_MS,
      maxPendingClients: MAX_PENDING_CLIENTS,
    });
    this.key = new TextEncoder().encode(options.signingSecret);
    this.accessTokenTtlMs = options.accessTokenTtlMs ?? OAUTH_BRIDGE_DEFAULTS.accessTokenTtlMs;
    const limits = {
      perCaller: options.maxRequestsPerMinute ?? OAUTH_BRIDGE_DEFAULTS.maxRequestsPerMinute,
      total: options.maxRequestsPerMinuteTotal ?? OAUTH_BRIDGE_DEFAULTS.maxRequestsPerMinuteTotal,
      windowMs: 60_000,
    };
    this.budgets = { register: new CallerBudget(limits), authorize: new CallerBudget(limits), document: new CallerBudget(limits) };
  }

  /** Discovers the identity provider (a coded boot error when it cannot be used). */
  start(): Promise<void> {
    return this.identityProvider.start();
  }

  /**
   * A registered client, or a client ID metadata document (CIMD) fetched from its URL and kept in the store for a
   * few minutes, so one sign-in fetches it once.
   */
  private async client(id: string, address: string): Promise<BridgeClient | undefined> {
    if (!id || id.length > MAX_TEXT) return undefined;
    const loopback = this.options.allowHttpLoopbackClientIds ?? false;
    if (!this.isDocumentClient(id)) return this.grants.client(id);
    const cached = await this.grants.cachedDocument(id);
    if (cached) return cached;
    // Each fetch is a request to a host the caller names: bounded per caller like registrations.
    if (this.budgets.document.take([`address:${addressKey(address)}`]) !== undefined) return undefined;
    const fetched = await fetchClientMetadataDocument(id, this.options.timeoutMs ?? OAUTH_BRIDGE_DEFAULTS.timeoutMs, loopback);
    if (fetched) await this.grants.cacheDocument(fetched);
    return fetched;
  }

  /** Whether `id` is a client ID metadata document URL (CIMD) rather than a registration. */
  private isDocumentClient(id: string): boolean {
    return (this.options.clientIdMetadataDocuments ?? true) && isClientIdUrl(id, this.options.allowHttpLoopbackClientIds ?? false);
  }

  private endpoint(name: string): string {
    return `${this.issuer}${BRIDGE_BASE_PATH}/${name}`;
  }

  /** RFC 8414 metadata. */
  metadata(): BridgeReply {
    return json(200, {
      issuer: this.issuer,
      authorization_endpoint: this.endpoint('authorize'),
      token_endpoint: this.endpoint('token'),
      registration_endpoint: this.endpoint('register'),
      revocation_endpoint: this.endpoint('revoke'),
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...new Set([...this.toolScopes(), ...mappedScopes(this.options.scopes)])],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: this.options.clientIdMetadataDocuments ?? true,
    });
  }

  /**
   * Dynamic client registration (RFC 7591), public clients only, bounded per minute per caller address; pending (and
   * soon gone) until a sign-in completes with it.
   */
  async register(request: BridgeRequest): Promise<BridgeReply> {
    const waitMs = this.budgets.register.take([`address:${addressKey(request.address)}`]);
    if (waitMs !== undefined) return tooMany(waitMs, 'Too many registrations; try again in a minute');
    const client = publicClient(randomToken(18), request.form);
    if ('error' in client) return oauthError(400, client.error, client.description);
    if (!(await this.grants.savePendingClient(client)))
      return tooMany(60_000, 'Too many registrations are waiting for a sign-in; try again later');
    return json(201, {
      ...client,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
  }

  /**
   * `/authorize`: bounded per caller address and per registered client; the client and its exact redirect URI, then
   * PKCE S256. Every error is a page, never a redirect: anyone may register a client, so an automatic redirect to
   * its URI would make this server an open redirector (RFC 9700 §4.11.2). The browser goes to the provider with the
   * bridge's own state, nonce and PKCE.
   */
  async authorize(request: BridgeRequest): Promise<BridgeReply> {
    const query = request.query;
    const clientId = query.get('client_id') ?? '';
    // A client ID document URL names a client many users share: its users are counted by their addresses only.
    const callers = [`address:${addressKey(request.address)}`, ...(this.isDocumentClient(clientId) ? [] : [`client:${sha256(clientId)}`])];
    const waitMs = this.budgets.authorize.take(callers);
    if (waitMs !== undefined) return errorPage(429, 'Too many sign-ins were started; try again in a minute.', waitMs);
    const client = await this.client(clientId, request.address);
    if (!client) return errorPage(400, 'Unknown client.');
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!client.redirect_uris.includes(redirectUri)) return errorPage(400, 'The redirect URI is not registered for this client.');
    const state = query.get('state') ?? undefined;
    if (query.get('response_type') !== 'code') return errorPage(400, 'The client asked for an unsupported response type (only code).');
    const challenge = query.get('code_challenge');
    if (!isS256Challenge(challenge, query.get('code_challenge_method')))
      return errorPage(400, 'The client did not use PKCE with code_challenge_method S256, which this server requires.');
    const resource = query.get('resource');
    if (resource !== null && resource !== this.resource) return errorPage(400, 'The client asked for tokens for another resource.');
    const scope = query.get('scope') ?? '';
    // Both are kept with the sign-in until it ends.
    if (scope.length > MAX_TEXT || (state?.length ?? 0) > MAX_TEXT) return errorPage(400, 'The client sent too long a scope or state.');
    const cookies: string[] = [];
    let browser = request.cookies[BROWSER_COOKIE];
    if (!browser || !/^[A-Za-z0-9_-]{43}$/.test(browser)) {
      browser = randomToken();
      cookies.push(this.browserCookie(browser));
    }
    const providerVerifier = randomToken();
    const nonce = randomToken();
    const transaction = await this.grants.openTransaction({
      clientId,
      redirectUri,
      ...(state !== undefined && { state }),
      codeChallenge: challenge,
      scope,
      browser: sha256(browser),
      upstreamVerifier: providerVerifier,
      nonce,
    });
    const signIn = this.identityProvider.authorizationUrl({
      state: transaction,
      nonce,
      codeChallenge: s256(providerVerifier),
      redirectUri: this.endpoint('callback'),
      scopes: this.options.upstream.scopes ?? [...OAUTH_BRIDGE_DEFAULTS.upstreamScopes],
    });
    return redirect(signIn, cookies);
  }

  /** The provider's redirect back: same browser, then the provider's code exchanged for the user and the scopes they may have. */
  async callback(request: BridgeRequest): Promise<BridgeReply> {
    const id = request.query.get('state') ?? '';
    const transaction = id ? await this.grants.transaction(id) : undefined;
    if (!transaction || transaction.user || !this.sameBrowser(request, transaction.browser))
      return errorPage(400, 'This sign-in is unknown, expired, or was started in another browser.');
    const code = request.query.get('code');
    if (!code) {
      // A page, not the client's redirect URI: the user has not seen where that leads yet (the consent page names it).
      await this.grants.closeTransaction(id, transaction);
      return errorPage(400, 'The sign-in was not completed at the identity provider; start again from your application.');
    }
    let user: BridgeUser;
    let scope: string;
    try {
      const claims = await this.identityProvider.signedInUser(
        code,
        transaction.upstreamVerifier,
        this.endpoint('callback'),
        transaction.nonce,
      );
      const tenantClaim = this.options.upstream.tenantClaim ?? OAUTH_BRIDGE_DEFAULTS.upstreamTenantClaim;
      const tenant = claims[tenantClaim];
      if (typeof tenant !== 'string' || tenant === '') return errorPage(403, 'Your account carries no tenant for this server.');
      user = { sub: claims.sub, tenant, ...(typeof claims.email === 'string' && { email: claims.email }) };
      scope = this.grantedScope(transaction.scope, await userScopes(this.options.scopes, claims));
    } catch {
      return errorPage(502, 'The identity provider could not confirm the sign-in; try again.');
    }
    const signedIn = { ...transaction, user, scope };
    if (!(await this.grants.updateTransaction(id, transaction, signedIn))) return errorPage(400, 'This sign-in was already completed.');
    // Always asked: any client may register, so without the user's word a link could sign them in to an attacker's client.
    return redirect(`${this.endpoint('consent')}?transaction=${encodeURIComponent(id)}`);
  }

  /** The consent page, for the browser that signed in. */
  async consent(request: BridgeRequest): Promise<BridgeReply> {
    const id = request.query.get('transaction') ?? '';
    const transaction = id ? await this.grants.transaction(id) : undefined;
    if (!transaction?.user || !this.sameBrowser(request, transaction.browser)) return errorPage(400, 'This sign-in is unknown or expired.');
    const client = await this.client(transaction.clientId, request.address);
    const target = new URL(transaction.redirectUri);
    return page(
      200,
      consentPage({
        client: client?.client_name ?? transaction.clientId,
        redirectHost: target.host,
        user: transaction.user.email ?? transaction.user.sub,
        scopes: transaction.scope.split(' ').filter(Boolean),
        transaction: id,
        csrf: this.csrf(id, transaction.browser),
      }),
      [target.origin],
    );
  }

  /** The consent form's answer: same browser, CSRF token checked, then a code (or `access_denied`) to the client. */
  async decide(request: BridgeRequest): Promise<BridgeReply> {
    const id = text(request.form.transaction) ?? '';
    const transaction = id ? await this.grants.transaction(id) : undefined;
    if (!transaction?.user || !this.sameBrowser(request, transaction.browser)) return errorPage(400, 'This sign-in is unknown or expired.');
    const csrf = Buffer.from(text(request.form.csrf) ?? '');
    const expected = Buffer.from(this.csrf(id, transaction.browser));
    if (csrf.length !== expected.length || !timingSafeEqual(csrf, expected)) return errorPage(403, 'The form has expired; start again.');
    if (!(await this.grants.closeTransaction(id, transaction))) return errorPage(400, 'This sign-in was already completed.');
    if (request.form.decision !== 'approve') {
      return redirect(
        this.clientRedirect(transaction.redirectUri, {
          error: 'access_denied',
          error_description: 'the user denied access',
          state: transaction.state,
        }),
      );
    }
    const code = await this.grants.issueCode({
      clientId: transaction.clientId,
      redirectUri: transaction.redirectUri,
      codeChallenge: transaction.codeChallenge,
      scope: transaction.scope,
      user: transaction.user,
    });
    return redirect(this.clientRedirect(transaction.redirectUri, { code, state: transaction.state }));
  }

  /**
   * `/token`: authorization_code (PKCE, exact redirect URI, single-use code: a second use revokes what the first
   * issued) or refresh_token (rotation).
   */
  async token(request: BridgeRequest): Promise<BridgeReply> {
    const form = request.form;
    const clientId = text(form.client_id);
    const client = clientId ? await this.client(clientId, request.address) : undefined;
    if (!clientId || !client) return oauthError(401, 'invalid_client', 'unknown client');
    if (form.grant_type === 'authorization_code') {
      const code = text(form.code);
      const redeemed = code ? await this.grants.redeemCode(code) : undefined;
      const record = redeemed?.record;
      if (!redeemed || !record || record.clientId !== clientId || record.redirectUri !== text(form.redirect_uri))
        return oauthError(400, 'invalid_grant', 'the code is invalid, expired, used, or not for this client and redirect URI');
      if (!verifierMatches(form.code_verifier, record.codeChallenge))
        return oauthError(400, 'invalid_grant', 'the PKCE code verifier does not match');
      const created = await this.grants.createGrant(clientId, record.scope, record.user);
      if (!created) return oauthError(400, 'invalid_grant', 'this account holds too many grants; revoke one first');
      if (!(await redeemed.bind(created.grant)))
        return oauthError(400, 'invalid_grant', 'the code was used twice; what it granted is revoked');
      await this.grants.confirmClient(client);
      return this.tokens(created.grant, created.refreshToken);
    }
    if (form.grant_type === 'refresh_token') {
      const refreshToken = text(form.refresh_token);
      if (!refreshToken) return oauthError(400, 'invalid_request', 'refresh_token is required');
      const rotated = await this.grants.rotate(refreshToken, clientId);
      if (rotated === 'invalid') return oauthError(400, 'invalid_grant', 'the refresh token is invalid or expired');
      if (rotated === 'reused') return oauthError(400, 'invalid_grant', 'the refresh token was used before; the grant is revoked');
      return this.tokens(rotated.grant, rotated.refreshToken);
    }
    return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  /**
   * RFC 7009: the client identifies itself (`client_id`: public clients have no secret); a refresh or access token
   * of one of its grants ends that whole grant. Another client's token, or anything else, is ignored (200, §2.2).
   */
  async revoke(request: BridgeRequest): Promise<BridgeReply> {
    const clientId = text(request.form.client_id);
    if (!clientId || !(await this.client(clientId, request.address))) return oauthError(401, 'invalid_client', 'unknown client');
    const token = text(request.form.token);
    if (!token) return oauthError(400, 'invalid_request', 'token is required');
    const grant = await this.grantOf(token);
    if (grant?.clientId === clientId) await this.grants.revoke(grant);
    return json(200, {});
  }

  /** Whether a JWT-shaped token claims to come from this bridge (unverified: it only picks the verifier). */
  issued(token: string): boolean {
    try {
      return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).iss === this.issuer;
    } catch {
      return false;
    }
  }

  /** Verifies an access token of this bridge: signature, issuer, audience, lifetime, and a live grant. */
  async verify(token: string): Promise<McpPrincipal> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer,
        audience: this.resource,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'gid'],
      }));
    } catch {
      throw new McpAuthError('INVALID_TOKEN', 'The access token is invalid or expired');
    }
    let grant: BridgeGrant | undefined;
    try {
      grant = await this.grants.grant(String(payload.gid));
    } catch {
      // The store is down: the token may be good, so a 503 (retry), neither a 401 nor a 500.
      throw new McpAuthUnavailableError('the grant store cannot be reached to check the access token', 5_000);
    }
    if (!grant || grant.user.sub !== payload.sub) throw new McpAuthError('INVALID_TOKEN', 'The access token was revoked');
    return principalFromClaims(payload, 'tenant_id');
  }

  private async grantOf(token: string): Promise<BridgeGrant | undefined> {
    if (this.issued(token)) {
      try {
        const { payload } = await jwtVerify(token, this.key, { issuer: this.issuer, algorithms: ['HS256'] });
        return this.grants.grant(String(payload.gid));
      } catch {
        return undefined;
      }
    }
    const grant = await this.grants.grant(token.split('.')[0] ?? '');
    return grant && grant.refresh === sha256(token) ? grant : undefined;
  }

  private async tokens(grant: BridgeGrant, refreshToken: string): Promise<BridgeReply> {
    const ttlSec = Math.floor(this.accessTokenTtlMs / 1000);
    const accessToken = await new SignJWT({
      scope: grant.scope,
      tenant_id: grant.user.tenant,
      client_id: grant.clientId,
      gid: grant.id,
      ...(grant.user.email && { email: grant.user.email }),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(this.resource)
      .setSubject(grant.user.sub)
      .setIssuedAt()
      .setExpirationTime(`${ttlSec}s`)
      .setJti(randomToken(12))
      .sign(this.key);
    return json(200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ttlSec,
      refresh_token: refreshToken,
      scope: grant.scope,
    });
  }

  /** The scopes granted: those asked that the user may have (all they may have when none are asked). */
  private grantedScope(asked: string, allowed: string[]): string {
    if (!asked.trim()) return allowed.join(' ');
    return [...new Set(asked.split(' '))].filter((scope) => allowed.includes(scope)).join(' ');
  }

  private clientRedirect(redirectUri: string, params: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries({ ...params, iss: this.issuer })) if (value !== undefined) url.searchParams.set(name, value);
    return url.href;
  }

  private sameBrowser(request: BridgeRequest, browserHash: string): boolean {
    const cookie = request.cookies[BROWSER_COOKIE];
    return cookie !== undefined && sha256(cookie) === browserHash;
  }

  private csrf(transaction: string, browserHash: string): string {
    return createHmac('sha256', this.key).update(`consent\n${transaction}\n${browserHash}`).digest('base64url');
  }

  private browserCookie(value: string): string {
    const secure = this.issuer.startsWith('https:') ? '; Secure' : '';
    return `${BROWSER_COOKIE}=${value}; Path=${BRIDGE_BASE_PATH}; HttpOnly; SameSite=Lax; Max-Age=600${secure}`;
  }
}
