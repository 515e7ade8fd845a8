/**
 * A real OpenID Connect / OAuth 2.1 authorization server on loopback for the e2e specs: the certified
 * `oidc-provider`, in-process, on a free port. Resource indicators (RFC 8707: JWT access tokens bound to the resource
 * asked for, opaque ones for the clients listed in `opaqueClients`), client credentials, authorization code + PKCE
 * with its development login/consent pages (automated over HTTP by {@link authorizeOverHttp}), introspection,
 * revocation, signing-key rotation without losing the tokens already issued, and OAuth 2.0 Token Exchange (RFC 8693,
 * registered with `provider.registerGrantType`) for the clients given in `tokenExchange`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import Provider, { type ClientMetadata, type Configuration, type ResourceServerInfo } from 'oidc-provider';

/** The resource server's own client (introspection), a machine client, and a public client with PKCE. */
export const INTROSPECTION_CLIENT = { id: 'mcp-resource-server', secret: 'resource-server-secret-0123456789abcdef' };
export const MACHINE_CLIENT = { id: 'machine', secret: 'machine-secret-0123456789abcdef' };
/** Same as the machine client, but its access tokens are opaque (introspected). */
export const OPAQUE_MACHINE_CLIENT = { id: 'machine-opaque', secret: 'machine-opaque-secret-0123456789' };
/** A public client (no secret) of the authorization-code flow; any loopback redirect URI is registered below. */
export const PUBLIC_CLIENT = { id: 'mcp-app' };
export const PUBLIC_REDIRECT_URI = 'http://127.0.0.1:53682/callback';

export interface AuthorizationServerOptions {
  /** Scopes a client may ask for at every resource (`openid` and `offline_access` are added). */
  scopes: string[];
  /** The `tenant_id` claim put into tokens of a subject or a client (none when it answers undefined). */
  tenantOf?: (subjectOrClientId: string) => string | undefined;
  /** More clients (e.g. with the redirect URI of an SDK client). */
  clients?: ClientMetadata[];
  /** Access-token lifetime, seconds (600). */
  accessTokenTtlSec?: number;
  /** Access-token lifetime of the tokens for one resource, seconds (`accessTokenTtlSec` when it answers undefined). */
  accessTokenTtlFor?: (resource: string) => number | undefined;
  /**
   * Token exchange (RFC 8693): a listed client may exchange a subject token (a JWT of this server whose audience is
   * `subjectAudience`) for a JWT access token for the `resource` it asks for, with `sub` the subject token's and
   * `act.sub` the client; a subject token of a client in `refusedSubjectClients` is refused (`invalid_grant`).
   */
  tokenExchange?: { clients: string[]; subjectAudience: string; refusedSubjectClients?: string[] };
  /** More claims of an account (served by userinfo for the scope `groups`: its `groups` claim). */
  accountClaims?: (subject: string) => Record<string, unknown>;
  /**
   * `false`: a plain OAuth 2.0 server (as many are, GitHub's for one): its token answers carry no ID token, even for
   * a code granted with `openid`.
   */
  idTokens?: false;
}

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
  refresh_token?: string;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `key-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, alg: 'RS256', use: 'sig' };
}

export class TestAuthorizationServer {
  /** `http://127.0.0.1:<port>`: also the issuer. */
  readonly issuer: string;
  private provider!: Provider;
  private keys: JWK[] = [];
  private introspectionDown = false;
  private introspectionDelayMs = 0;
  /** Requests to the introspection endpoint so far (answered or not). */
  introspections = 0;
  /** Token exchanges granted so far. */
  exchanges = 0;
  /** Requests to the revocation endpoint so far. */
  revocations = 0;

  private constructor(
    private readonly server: Server,
    private readonly options: AuthorizationServerOptions,
  ) {
    this.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Starts the server on a free loopback port. */
  static async start(options: AuthorizationServerOptions): Promise<TestAuthorizationServer> {
    const holder: { target?: TestAuthorizationServer } = {};
    const server = createServer((request, response) => holder.target!.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = (holder.target = new TestAuthorizationServer(server, options));
    target.keys = [await signingKey()];
    target.provider = target.build();
    return target;
  }

  /** The `kid` tokens are signed with now. */
  get currentKid(): string {
    return String(this.keys[0].kid);
  }

  /**
   * A new signing key, listed first (signing) beside the old one (still verifying): the provider is rebuilt behind
   * the same socket, its grants and tokens kept (oidc-provider's memory adapter is shared by the process).
   */
  async rotateKeys(): Promise<string> {
    this.keys = [await signingKey(), ...this.keys].slice(0, 2);
    this.provider = this.build();
    return this.currentKid;
  }

  /** While true, the introspection endpoint answers 503 (an outage of it, the rest up). */
  setIntrospectionDown(down: boolean): void {
    this.introspectionDown = down;
  }

  /** Each introspection request waits `ms` before it is answered (a slow authorization server). */
  setIntrospectionDelay(ms: number): void {
    this.introspectionDelayMs = ms;
  }

  /** A client-credentials token for `resource` (RFC 8707) with `scope`. */
  async clientCredentials(client: { id: string; secret: string }, resource: string, scope: string): Promise<TokenAnswer> {
    return this.token(client, { grant_type: 'client_credentials', resource, scope });
  }

  /** POST /token as `client` (client_secret_basic). */
  async token(client: { id: string; secret: string }, params: Record<string, string>): Promise<TokenAnswer> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(client) },
      body: new URLSearchParams(params),
    });
    const body = (await response.json()) as TokenAnswer & { error?: string; error_description?: string };
    if (!response.ok) throw new Error(`token endpoint: ${response.status} ${body.error}: ${body.error_description}`);
    return body;
  }

  /** Revokes `token` (RFC 7009) as `client`. */
  async revoke(client: { id: string; secret: string }, token: string): Promise<void> {
    const response = await fetch(`${this.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(client) },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    if (!response.ok) throw new Error(`revocation: ${response.status}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const introspection = request.url?.startsWith('/token/introspection') ?? false;
    if (introspection) this.introspections++;
    if (request.url?.startsWith('/token/revocation')) this.revocations++;
    if (this.introspectionDown && introspection) {
      response.writeHead(503, { 'Content-Type': 'text/plain' }).end('down for maintenance');
      return;
    }
    if (introspection && this.introspectionDelayMs > 0) {
      setTimeout(() => void this.provider.callback()(request, response), this.introspectionDelayMs);
      return;
    }
    void this.provider.callback()(request, response);
  }

  private build(): Provider {
    const { scopes, tenantOf, accessTokenTtlSec = 600 } = this.options;
    const opaqueClients = new Set([OPAQUE_MACHINE_CLIENT.id]);
    const configuration: Configuration = {
      clients: [
        {
          client_id: INTROSPECTION_CLIENT.id,
          client_secret: INTROSPECTION_CLIENT.secret,
          grant_types: [],
          response_types: [],
          redirect_uris: [],
        },
        ...[MACHINE_CLIENT, OPAQUE_MACHINE_CLIENT].map((client) => ({
          client_id: client.id,
          client_secret: client.secret,
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
          scope: scopes.join(' '),
        })),
        {
          client_id: PUBLIC_CLIENT.id,
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          redirect_uris: [PUBLIC_REDIRECT_URI],
          application_type: 'native',
        },
        ...(this.options.clients ?? []),
      ],
      jwks: { keys: this.keys },
      scopes: ['openid', 'offline_access', 'groups', ...scopes],
      claims: { openid: ['sub'], groups: ['groups'] },
      cookies: { keys: ['test-authorization-server-cookie-key'] },
      ttl: {
        // The resource's own lifetime (accessTokenTtlFor), else accessTokenTtlSec.
        AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtlSec,
        ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtlSec,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
        RefreshToken: 3600,
      },
      // Any login name is an account whose subject is that name.
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ ...this.options.accountClaims?.(sub), sub }) }),
      features: {
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          // The authorization-code flow: the resource asked for at /authorize is used at /token too.
          useGrantedResource: () => true,
          defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf,
          getResourceServerInfo: (_ctx: unknown, resource: string, client: { clientId: string }): ResourceServerInfo => ({
            scope: scopes.join(' '),
            audience: resource,
            accessTokenTTL: this.options.accessTokenTtlFor?.(resource) ?? accessTokenTtlSec,
            accessTokenFormat: opaqueClients.has(client.clientId) ? 'opaque' : 'jwt',
          }),
        },
      },
      extraTokenClaims: (ctx, token) => {
        const who = token.accountId ?? token.clientId;
        const tenant = who ? tenantOf?.(String(who)) : undefined;
        // An exchanged token names the client acting for the subject (RFC 8693 §4.1).
        const act = (ctx as { state?: { act?: { sub: string } } } | undefined)?.state?.act;
        return { ...(tenant && { tenant_id: tenant }), ...(act && { act }) };
      },
    };
    const provider = new Provider(this.issuer, configuration);
    if (this.options.tokenExchange) this.registerTokenExchange(provider, this.options.tokenExchange);
    // Logs nothing in tests: oidc-provider reports server errors through the app's 'error' event.
    provider.on('server_error', () => undefined);
    // Emitted once the grant's answer is built, before it is sent.
    if (this.options.idTokens === false)
      provider.on('grant.success', (ctx: unknown) => {
        delete (ctx as { body?: { id_token?: string } }).body?.id_token;
      });
    return provider;
  }

  /**
   * The token-exchange grant: the subject token is checked (signature, issuer, audience), then an access token is
   * minted with oidc-provider's own model for the resource asked for, a JWT whose `aud` is that resource.
   */
  private registerTokenExchange(provider: Provider, settings: NonNullable<AuthorizationServerOptions['tokenExchange']>): void {
    const { scopes, accessTokenTtlSec = 600 } = this.options;
    const publicKeys = createLocalJWKSet({ keys: this.keys.map(({ kty, n, e, kid, alg }) => ({ kty, n, e, kid, alg })) });
    const refuse = (ctx: ExchangeContext, error: string, description: string) => {
      ctx.status = 400;
      ctx.body = { error, error_description: description };
    };
    const handler = async (ctx: ExchangeContext) => {
      const { client, params } = ctx.oidc;
      if (!settings.clients.includes(client.clientId)) return refuse(ctx, 'unauthorized_client', 'not allowed to exchange tokens');
      if (params.subject_token_type !== ACCESS_TOKEN_TYPE) return refuse(ctx, 'invalid_request', 'subject_token_type');
      let subject: { sub?: string; client_id?: unknown };
      try {
        ({ payload: subject } = await jwtVerify(String(params.subject_token), publicKeys, {
          issuer: this.issuer,
          audience: settings.subjectAudience,
        }));
      } catch {
        return refuse(ctx, 'invalid_grant', 'the subject token is not valid here');
      }
      if (settings.refusedSubjectClients?.includes(String(subject.client_id)))
        return refuse(ctx, 'invalid_grant', 'not on behalf of this subject');
      const resource = typeof params.resource === 'string' ? params.resource : undefined;
      if (!resource) return refuse(ctx, 'invalid_target', 'a resource is required');
      const asked = typeof params.scope === 'string' ? params.scope.split(' ') : [];
      const token = new provider.AccessToken({
        accountId: subject.sub,
        client,
        grantId: `exchange-${this.exchanges}`,
        gty: 'token-exchange',
        scope: asked.filter((scope) => scopes.includes(scope)).join(' ') || undefined,
      });
      token.resourceServer = { audience: resource, scope: scopes.join(' '), accessTokenTTL: accessTokenTtlSec, accessTokenFormat: 'jwt' };
      ctx.state.act = { sub: client.clientId };
      const value = await token.save();
      this.exchanges++;
      ctx.body = {
        access_token: value,
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: 'Bearer',
        expires_in: token.expiration,
        ...(token.scope && { scope: token.scope }),
      };
    };
    provider.registerGrantType(TOKEN_EXCHANGE_GRANT, handler, [
      'subject_token',
      'subject_token_type',
      'requested_token_type',
      'resource',
      'audience',
      'scope',
    ]);
  }
}

/** What the token-exchange handler reads of oidc-provider's request context. */
interface ExchangeContext {
  oidc: { client: { clientId: string }; params: Record<string, unknown> };
  state: { act?: { sub: string } };
  status: number;
  body: unknown;
}

function basic(client: { id: string; secret: string }): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`;
}

/**
 * Plays the user at oidc-provider's development login and consent pages over plain HTTP (a cookie jar and manual
 * redirects): signs in as `account`, grants what is asked (at the bridge's consent page too), and answers the redirect URI with its `code` (and
 * `state`) without requesting it.
 */
export async function authorizeOverHttp(
  authorizationUrl: string,
  redirectUri: string,
  account: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  let url = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.href.startsWith(redirectUri)) return url;
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      headers: { Cookie: cookieHeader(), ...(body && { 'Content-Type': 'application/x-www-form-urlencoded' }) },
      body,
      redirect: 'manual',
    });
    keep(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    // The bridge's consent page (auth.bridge): its hidden fields (transaction, CSRF token), and the decision.
    if (response.status === 200 && page.includes('data-consent')) {
      const fields = [...page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(([, name, value]) => [name, value]);
      body = new URLSearchParams([...fields, ['decision', decision]]);
      continue;
    }
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (response.status !== 200 || !prompt)
      throw new Error(`authorization stopped at ${url.pathname}: ${response.status} ${page.slice(0, 300)}`);
    body = new URLSearchParams(prompt === 'login' ? { prompt, login: account, password: 'any' } : { prompt });
  }
  throw new Error('authorization did not reach the redirect URI in 20 steps');
}
