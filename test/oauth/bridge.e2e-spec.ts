import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationFull, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpModule } from '@nest-mcp/core';
import { SecFixtureModule } from '../security/fixtures/sec-app.js';
import { authorizeOverHttp, TestAuthorizationServer } from '../kit/authorization-server.js';
import { listen, type RunningApp } from '../kit/apps.js';
import { callTool, post } from '../kit/http.js';
import { freePort, startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';

/**
 * The authorization-server bridge (`auth.bridge`) with its grants in Redis: oidc-provider plays an upstream OpenID
 * provider that offers no registration (the bridge is a confidential client there); the official TS SDK client
 * discovers the bridge, registers (RFC 7591), goes through /authorize → the provider's login → the consent page →
 * back, gets the bridge's tokens and calls a tool. The user is played over HTTP ({@link authorizeOverHttp}).
 */

const SCOPES = ['sec:read', 'sec:write'];
const REDIRECT_URI = 'http://127.0.0.1:53683/callback';
const UPSTREAM_CLIENT = { id: 'mcp-bridge', secret: 'bridge-upstream-secret-0123456789abcdef' };
/** The upstream accounts' groups; the main bridge maps them to scopes. */
const GROUPS: Record<string, string[]> = {
  alice: ['sec-admins'],
  frank: ['sec-admins'],
  carol: ['sec-admins'],
  dave: ['sec-admins'],
  hank: ['sec-admins'],
  rita: ['sec-readers'],
};
/** The budget per client and per address of the second bridge. */
const PLAIN_BUDGET = 3;

let upstream: TestAuthorizationServer;
let redis: RedisServerHandle;
/** The bridge with its grants in Redis, a scope mapping, and loopback client ID URLs allowed. */
let app: RunningApp;
/** A bridge as configured by default (no scope mapping, no loopback client IDs), tight budgets, behind a trusted proxy. */
let plain: RunningApp;
/** Serves client ID metadata documents (CIMD): `documents[path]`, as JSON. */
let documentHost: Server;
let documentBase: string;
const documents: Record<string, unknown> = {};
beforeAll(async () => {
  documentHost = createServer((request, response) => {
    const document = documents[request.url ?? ''];
    response.writeHead(document ? 200 : 404, { 'Content-Type': 'application/json' }).end(JSON.stringify(document ?? {}));
  });
  await new Promise<void>((resolve) => documentHost.listen(0, '127.0.0.1', resolve));
  documentBase = `http://127.0.0.1:${(documentHost.address() as AddressInfo).port}`;
  const [port, plainPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const plainBase = `http://127.0.0.1:${plainPort}`;
  redis = await startRedisServer();
  upstream = await TestAuthorizationServer.start({
    scopes: SCOPES,
    accountClaims: (subject) => ({ groups: GROUPS[subject] ?? [] }),
    clients: [
      {
        client_id: UPSTREAM_CLIENT.id,
        client_secret: UPSTREAM_CLIENT.secret,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${base}/oauth/callback`, `${plainBase}/oauth/callback`],
      },
    ],
  });
  const upstreamOptions = { issuer: upstream.issuer, clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret };
  app = await listen(
    [
      SecFixtureModule.with({
        redis: { url: redis.url },
        auth: {
          bridge: {
            resource: `${base}/mcp`,
            upstream: { ...upstreamOptions, scopes: ['openid', 'groups'] },
            signingSecret: 'bridge-signing-secret-0123456789abcdef',
            scopes: { fromClaim: 'groups', map: { 'sec-admins': ['sec:read', 'sec:write'], 'sec-readers': ['sec:read'] } },
            allowHttpLoopbackClientIds: true,
          },
        },
      }),
    ],
    { port },
  );
  plain = await listen(
    [
      SecFixtureModule.with({
        http: { trustProxy: true },
        auth: {
          bridge: {
            resource: `${plainBase}/mcp`,
            upstream: { ...upstreamOptions, scopes: ['openid', 'groups'] },
            signingSecret: 'bridge-signing-secret-0123456789abcdef',
            maxRequestsPerMinute: PLAIN_BUDGET,
          },
        },
      }),
    ],
    { port: plainPort },
  );
});
afterAll(async () => {
  await app?.close();
  await plain?.close();
  await upstream?.close();
  await redis?.stop();
  await new Promise((resolve) => documentHost?.close(resolve));
});

/** A client of the bridge registered on the fly (DCR); the user is played over HTTP. */
class BridgeUserProvider implements OAuthClientProvider {
  private saved?: OAuthTokens;
  private verifier = '';
  private registered?: OAuthClientInformationFull;
  callbackUrl?: URL;

  constructor(
    private readonly account: string,
    private readonly target: RunningApp = app,
  ) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'bridge e2e',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationFull | undefined {
    return this.registered;
  }
  saveClientInformation(information: OAuthClientInformationFull): void {
    this.registered = information;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    expect(url.origin).toBe(this.target.base);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    this.callbackUrl = await authorizeOverHttp(url.href, REDIRECT_URI, this.account);
  }
}

/** Signs `account` in through the SDK client; the provider holds the bridge's tokens then. */
async function signIn(account: string, target: RunningApp = app): Promise<BridgeUserProvider> {
  const provider = new BridgeUserProvider(account, target);
  const first = new StreamableHTTPClientTransport(new URL(target.url), { authProvider: provider });
  await expect(new Client({ name: 'bridge-e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const code = provider.callbackUrl?.searchParams.get('code');
  expect(provider.callbackUrl?.searchParams.get('iss')).toBe(target.base);
  await first.finishAuth(code!);
  await first.close();
  return provider;
}

async function whoami(provider: OAuthClientProvider, target: RunningApp = app): Promise<Record<string, unknown>> {
  const client = new Client({ name: 'bridge-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(target.url), { authProvider: provider }));
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { data: Record<string, unknown> }).data;
  } finally {
    await client.close();
  }
}

/** The HTTP status of a stateless call of `tool` with the provider's access token (403: a scope it lacks). */
async function toolStatus(provider: OAuthClientProvider, tool: string, target: RunningApp = app): Promise<number> {
  const answer = await post(target.url, callTool(1, tool), { Authorization: `Bearer ${(await provider.tokens())!.access_token}` });
  return answer.status;
}

/** The status of an initialize POST carrying `token`. */
async function mcpStatus(token: string): Promise<number> {
  return (await mcpAnswer(token)).status;
}

/** The status and `Retry-After` of an initialize POST carrying `token`. */
async function mcpAnswer(token: string): Promise<{ status: number; retryAfter: string | null }> {
  const response = await fetch(app.url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await response.body?.cancel();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

async function postForm(
  path: string,
  form: Record<string, string>,
  target: RunningApp = app,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${target.base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Registers a client (DCR), from `address` behind the plain bridge's proxy when given; its status and client id. */
async function tryRegister(target: RunningApp = app, address?: string): Promise<{ status: number; clientId?: string }> {
  const response = await fetch(`${target.base}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(address && { 'X-Forwarded-For': address }) },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
  });
  const body = (await response.json()) as { client_id?: string };
  return { status: response.status, clientId: body.client_id };
}

async function register(target: RunningApp = app, address?: string): Promise<string> {
  const { status, clientId } = await tryRegister(target, address);
  expect(status).toBe(201);
  return clientId!;
}

/** The `/authorize` URL for `clientId` with an S256 challenge, and `extra`. */
function authorizeUrl(target: RunningApp, clientId: string, extra: Record<string, string> = {}): URL {
  const url = new URL(`${target.base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return url;
}

/** `/authorize` ({@link authorizeUrl}) from `address` when given; the raw answer. */
async function startAuthorize(
  target: RunningApp,
  clientId: string,
  extra: Record<string, string> = {},
  address?: string,
): Promise<{ status: number; location: string | null; body: string }> {
  const url = authorizeUrl(target, clientId, extra);
  const response = await fetch(url, { redirect: 'manual', headers: address ? { 'X-Forwarded-For': address } : {} });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

/** /authorize by hand: the user played through; the code and the verifier that goes with it. */
async function authorizationCode(clientId: string, account: string): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const url = authorizeUrl(app, clientId, {
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: 'xyz',
    scope: 'sec:read',
  });
  const callback = await authorizeOverHttp(url.href, REDIRECT_URI, account);
  expect(callback.searchParams.get('state')).toBe('xyz');
  return { code: callback.searchParams.get('code')!, verifier };
}

describe('the authorization-server bridge (auth.bridge, Redis)', () => {
  it('serves RFC 8414 metadata, and the RFC 9728 document names it', async () => {
    const metadata = (await (await fetch(`${app.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: app.base,
      authorization_endpoint: `${app.base}/oauth/authorize`,
      token_endpoint: `${app.base}/oauth/token`,
      registration_endpoint: `${app.base}/oauth/register`,
      revocation_endpoint: `${app.base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    const resource = (await (await fetch(`${app.base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(resource.authorization_servers).toEqual([app.base]);
  });

  it('the SDK client registers, signs in upstream, consents, gets tokens and calls a tool; a refresh works', async () => {
    const provider = await signIn('alice');
    expect(await whoami(provider)).toEqual({ tenant: 'alice', subject: 'alice', scopes: SCOPES });

    const refreshed = await postForm('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: provider.tokens()!.refresh_token!,
      client_id: provider.clientInformation()!.client_id,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(provider.tokens()!.refresh_token);
    provider.saveTokens(refreshed.body as unknown as OAuthTokens);
    expect(await whoami(provider)).toEqual({ tenant: 'alice', subject: 'alice', scopes: SCOPES });
  });

  it('a refresh token used twice revokes the grant: its newer tokens stop working', async () => {
    const provider = await signIn('carol');
    const clientId = provider.clientInformation()!.client_id;
    const first = provider.tokens()!;
    const second = await postForm('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(second.status).toBe(200);
    expect(await mcpStatus(String(second.body.access_token))).toBe(200);

    const reused = await postForm('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(reused).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
    const newer = await postForm('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: String(second.body.refresh_token),
      client_id: clientId,
    });
    expect(newer.status).toBe(400);
    expect(await mcpStatus(String(second.body.access_token))).toBe(401);
  });

  it('a revoked access token is refused (RFC 7009)', async () => {
    const provider = await signIn('dave');
    const token = provider.tokens()!.access_token;
    expect(await mcpStatus(token)).toBe(200);
    expect((await postForm('/oauth/revoke', { token, client_id: provider.clientInformation()!.client_id })).status).toBe(200);
    expect(await mcpStatus(token)).toBe(401);
  });

  it('/oauth/revoke authenticates the client: another client ID revokes nothing (200), none is invalid_client', async () => {
    const provider = await signIn('dave');
    const { access_token: token, refresh_token: refreshToken } = provider.tokens()!;
    const other = await register();
    expect(await postForm('/oauth/revoke', { token, client_id: other })).toEqual({ status: 200, body: {} });
    expect(await postForm('/oauth/revoke', { token: refreshToken!, client_id: other })).toEqual({ status: 200, body: {} });
    expect(await mcpStatus(token)).toBe(200);
    expect(await postForm('/oauth/revoke', { token })).toEqual({ status: 401, body: expect.objectContaining({ error: 'invalid_client' }) });
    expect(await mcpStatus(token)).toBe(200);
  });

  it('a wrong PKCE verifier is refused, and the code is spent', async () => {
    const clientId = await register();
    const { code, verifier } = await authorizationCode(clientId, 'erin');
    const wrong = await postForm('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: randomBytes(32).toString('base64url'),
    });
    expect(wrong).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
    const again = await postForm('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(again.status).toBe(400);
  });

  it('a code is single-use and bound to its redirect URI', async () => {
    const clientId = await register();
    const { code, verifier } = await authorizationCode(clientId, 'frank');
    const form = { grant_type: 'authorization_code', code, client_id: clientId, code_verifier: verifier };
    expect((await postForm('/oauth/token', { ...form, redirect_uri: 'http://127.0.0.1:53683/other' })).status).toBe(400);

    const next = await authorizationCode(clientId, 'frank');
    const good = {
      grant_type: 'authorization_code',
      code: next.code,
      client_id: clientId,
      code_verifier: next.verifier,
      redirect_uri: REDIRECT_URI,
    };
    const granted = await postForm('/oauth/token', good);
    expect(granted.status).toBe(200);
    expect(granted.body.scope).toBe('sec:read');
    expect((await postForm('/oauth/token', good)).status).toBe(400);
  });

  it('an unregistered redirect URI is refused at /authorize, without a redirect', async () => {
    const clientId = await register();
    const response = await fetch(authorizeUrl(app, clientId, { redirect_uri: 'http://127.0.0.1:53683/evil' }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('/authorize refuses a client without PKCE S256 with an error page, never a redirect to its URI (open redirect)', async () => {
    const clientId = await register();
    const refusals: Record<string, string>[] = [
      { code_challenge_method: 'plain' },
      { response_type: 'token' },
      { resource: 'https://elsewhere.example/mcp' },
    ];
    for (const extra of refusals) {
      const answer = await startAuthorize(app, clientId, extra);
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.body).toContain('Sign-in error');
    }
  });

  it('a sign-in the provider did not complete ends on an error page, not at the client (open redirect)', async () => {
    const clientId = await register();
    const started = await fetch(authorizeUrl(app, clientId, { state: 'st' }), { redirect: 'manual' });
    const cookie = started.headers.getSetCookie()[0].split(';')[0];
    const upstreamState = new URL(started.headers.get('location')!).searchParams.get('state')!;
    // Where the provider sends the browser back after the user cancels there.
    const callback = new URL(`${app.base}/oauth/callback`);
    callback.search = new URLSearchParams({ state: upstreamState, error: 'access_denied', iss: upstream.issuer }).toString();
    const answer = await fetch(callback, { redirect: 'manual', headers: { Cookie: cookie } });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toContain('Sign-in error');
  });

  it('a code used twice revokes the tokens issued from it (RFC 6749 §4.1.2)', async () => {
    const clientId = await register();
    const { code, verifier } = await authorizationCode(clientId, 'alice');
    const form = { grant_type: 'authorization_code', code, client_id: clientId, code_verifier: verifier, redirect_uri: REDIRECT_URI };
    const granted = await postForm('/oauth/token', form);
    expect(granted.status).toBe(200);
    expect(await mcpStatus(String(granted.body.access_token))).toBe(200);
    expect(await postForm('/oauth/token', form)).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
    expect(await mcpStatus(String(granted.body.access_token))).toBe(401);
    const refreshed = await postForm('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: String(granted.body.refresh_token),
      client_id: clientId,
    });
    expect(refreshed.status).toBe(400);
  });

  it('scopes come from the mapping of the upstream groups: admins get both, readers sec:read, anyone else none', async () => {
    expect(await whoami(await signIn('alice'))).toEqual({ tenant: 'alice', subject: 'alice', scopes: SCOPES });
    const reader = await signIn('rita');
    expect(await whoami(reader)).toEqual({ tenant: 'rita', subject: 'rita', scopes: ['sec:read'] });
    expect(await toolStatus(reader, 'write_thing')).toBe(403);
    expect(await toolStatus(reader, 'read_thing')).toBe(200);
    const nobody = await signIn('nora');
    expect(await whoami(nobody)).toEqual({ tenant: 'nora', subject: 'nora', scopes: [] });
    expect(await toolStatus(nobody, 'read_thing')).toBe(403);
  });

  it('a client ID metadata document (CIMD) stands for a registration: its URL is the client_id', async () => {
    const clientId = `${documentBase}/clients/good.json`;
    documents['/clients/good.json'] = { client_id: clientId, client_name: 'CIMD client', redirect_uris: [REDIRECT_URI] };
    const metadata = (await (await fetch(`${app.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    const { code, verifier } = await authorizationCode(clientId, 'gina');
    const granted = await postForm('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(granted.status).toBe(200);
    expect(await mcpStatus(String(granted.body.access_token))).toBe(200);
  });

  it('a CIMD whose client_id is not its URL, or that lacks the redirect URI, is refused', async () => {
    const authorize = async (clientId: string) => (await startAuthorize(app, clientId)).status;
    documents['/clients/impostor.json'] = { client_id: `${documentBase}/clients/good.json`, redirect_uris: [REDIRECT_URI] };
    documents['/clients/elsewhere.json'] = {
      client_id: `${documentBase}/clients/elsewhere.json`,
      redirect_uris: ['https://elsewhere.example/cb'],
    };
    expect(await authorize(`${documentBase}/clients/impostor.json`)).toBe(400);
    expect(await authorize(`${documentBase}/clients/elsewhere.json`)).toBe(400);
    expect(await authorize(`${documentBase}/clients/missing.json`)).toBe(400);
  });

  it('a user who denies at the consent page sends the client access_denied, and no code', async () => {
    const clientId = await register();
    const callback = await authorizeOverHttp(authorizeUrl(app, clientId, { state: 'st' }).href, REDIRECT_URI, 'ivan', 'deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('st');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('the consent form needs the browser that signed in (no cookie: refused)', async () => {
    const response = await fetch(`${app.base}/oauth/consent`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ transaction: 'x'.repeat(43), csrf: 'y', decision: 'approve' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
  });

  // Last: it stops Redis.
  it('with the grant store down, a good access token is 503 with Retry-After, neither 401 nor 500', async () => {
    const provider = await signIn('hank');
    const token = provider.tokens()!.access_token;
    expect(await mcpStatus(token)).toBe(200);
    await redis.stop();
    expect(await mcpAnswer(token)).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
  });
});

describe('a bridge as configured by default, against hostile clients (tight budgets, behind a trusted proxy)', () => {
  it('grants no tool scope without a mapping: unscoped tools work, scoped ones are refused', async () => {
    const provider = await signIn('alice', plain);
    expect(await whoami(provider, plain)).toEqual({ tenant: 'alice', subject: 'alice', scopes: [] });
    expect(await toolStatus(provider, 'read_thing', plain)).toBe(403);
  });

  it("one address spending its /authorize budget locks neither other addresses nor other clients out; a client's budget holds across addresses", async () => {
    const [greedy, other] = [await register(plain, '198.51.100.1'), await register(plain, '198.51.100.2')];
    for (let i = 0; i < PLAIN_BUDGET; i++)
      expect((await startAuthorize(plain, greedy, {}, '198.51.100.1')).location).toMatch(upstream.issuer);
    const refused = await startAuthorize(plain, greedy, {}, '198.51.100.1');
    expect(refused).toMatchObject({ status: 429, location: null });
    expect((await startAuthorize(plain, other, {}, '198.51.100.2')).location).toMatch(upstream.issuer);
    // The same client from a fresh address: its own budget is spent.
    expect((await startAuthorize(plain, greedy, {}, '198.51.100.3')).status).toBe(429);
  });

  it('one address spending its registration budget locks no other address out', async () => {
    for (let i = 0; i < PLAIN_BUDGET; i++) expect((await tryRegister(plain, '203.0.113.1')).status).toBe(201);
    expect((await tryRegister(plain, '203.0.113.1')).status).toBe(429);
    expect((await tryRegister(plain, '203.0.113.2')).status).toBe(201);
  });

  it('a client ID metadata URL on a loopback address is refused before any connection (SSRF)', async () => {
    let connections = 0;
    const listener = createNetServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    try {
      for (const [index, host] of ['localhost', '127.0.0.1', '[::ffff:127.0.0.1]', '127.1'].entries()) {
        const answer = await startAuthorize(plain, `https://${host}:${port}/clients/c.json`, {}, `192.0.2.${index + 1}`);
        expect(answer).toMatchObject({ status: 400, location: null });
      }
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});

describe('auth.bridge at boot', () => {
  it('with forRootAsync, an auth.bridge whose routes were not asked for (authBridgeRoutes) fails the boot naming the fix', async () => {
    // Its routes are mapped before the factory runs, so they are mapped only on request: no app gets /oauth/* unasked.
    const bridge = {
      resource: 'http://127.0.0.1:1/mcp',
      upstream: { issuer: 'http://127.0.0.1:1', clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret },
      signingSecret: 'bridge-signing-secret-0123456789abcdef',
    };
    const booting = listen([McpModule.forRootAsync({ useFactory: () => ({ name: 'async-bridge', version: '1.0.0', auth: { bridge } }) })]);
    await expect(booting).rejects.toMatchObject({
      code: 'MCP_ERR_OAUTH_BRIDGE_ROUTES_NOT_MAPPED',
      message: expect.stringContaining('pass authBridgeRoutes: true'),
    });
  });

  it('an unreachable upstream provider fails the boot with MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNREACHABLE', async () => {
    const port = await freePort();
    const booting = listen([
      SecFixtureModule.with({
        auth: {
          bridge: {
            resource: 'http://127.0.0.1:1/mcp',
            upstream: { issuer: `http://127.0.0.1:${port}`, clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret },
            signingSecret: 'bridge-signing-secret-0123456789abcdef',
            timeoutMs: 1_000,
          },
        },
      }),
    ]);
    await expect(booting).rejects.toMatchObject({ code: 'MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNREACHABLE' });
  });
});
