import { createHash, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpModule, type McpUserAuthorizationOptions } from '@nest-mcp/core';
import { MCP_STORE, type McpKeyValueStore } from '../../../libs/mcp/src/stores/key-value.store.js';
import { initApp, listen, listenMcp, type RunningApp } from '../../kit/apps.js';
import { authorizeOverHttp, PUBLIC_CLIENT, PUBLIC_REDIRECT_URI, TestAuthorizationServer } from '../../kit/authorization-server.js';
import { RecordingLogger } from '../../kit/recording-logger.js';
import { freePort } from '../../kit/redis-server.harness.js';
import { callTool, completeSignIn, WhoAmITools } from '../../kit/upstream-user-auth.js';

/**
 * Per-user authorization of an upstream (`auth: { authorizationCode }`): a real oidc-provider protects an upstream MCP
 * server that accepts only tokens for its own resource; the gateway's callers are users signed in at the same
 * provider for the gateway. A user's first call answers a link at the gateway (or, for a 2026-07-28 client that
 * declared URL-mode elicitation, an elicitation with it); the test plays the user's browser over HTTP (login, consent,
 * the redirect back to the gateway), and that user's calls then reach the upstream as that user, refreshed when the
 * short-lived upstream token expires, until they disconnect. A second upstream is reached as the gateway itself.
 * The person who completes a link must be the user it was handed to (`confirmUser`): the provider's accounts are the
 * gateway's users (a login name is the subject of both the gateway's token and the ID token), so `'same-subject'`
 * holds for a user who opens their own link and refuses another account signing in to it.
 */

/** The gateway's client at the provider: the users' sign-ins (authorization code) and its own (client credentials). */
const GATEWAY_CLIENT = { id: 'gateway-users', secret: 'gateway-users-secret-0123456789abcdef' };
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
/** The upstream's access tokens live this long (seconds): the refresh is seen within one test. */
const UPSTREAM_TOKEN_TTL_SEC = 3;

/** The claims of the JWT in an `Authorization: Bearer` value (none for anything else). */
function claimsOf(authorization: string): { sub?: string; jti?: string } {
  const payload = authorization.split('.')[1];
  return payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub?: string; jti?: string }) : {};
}

/** A user's access token for the gateway: the authorization code flow of the public client, played over HTTP. */
async function userToken(as: TestAuthorizationServer, account: string, resource: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${as.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: PUBLIC_CLIENT.id,
    response_type: 'code',
    redirect_uri: PUBLIC_REDIRECT_URI,
    scope: 'notes:read',
    resource,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const callback = await authorizeOverHttp(url.href, PUBLIC_REDIRECT_URI, account);
  const response = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      client_id: PUBLIC_CLIENT.id,
      redirect_uri: PUBLIC_REDIRECT_URI,
      code_verifier: verifier,
      resource,
    }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!body.access_token) throw new Error(`no token for ${account}: ${body.error}`);
  return body.access_token;
}

describe('gateway → upstream per-user authorization (authorization code at the gateway, each user their own token)', () => {
  let as: TestAuthorizationServer;
  let upstream: RunningApp;
  let gateway: RunningApp;
  let gatewayResource: string;
  let callbackUri: string;
  /** A second gateway whose `confirmUser` is a function (its base URL, known before the provider starts). */
  let mappedBase: string;
  let mappedPort: number;
  let perUser: McpUserAuthorizationOptions;
  /** In front of the upstream for the per-user upstream "vault": it refuses (401) what `refuses` says, else relays. */
  let proxy: Server;
  let refuses: (authorization: string) => boolean = () => false;
  const opened: Client[] = [];
  const tokens: Record<string, string> = {};

  /** The official client (2.4) as a user of the gateway (or of `url` with `token`), in the era it negotiates by default. */
  async function connect(account: string, url = gateway.url, token = tokens[account]): Promise<Client> {
    const client = new Client({ name: `per-user-${account}`, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    opened.push(client);
    return client;
  }

  const call = callTool;

  /** Plays `account` in a browser that opens `link`: the provider's login and consent, then the gateway's callback. */
  const connectAccount = (link: string, account: string, redirectUri = callbackUri) => completeSignIn(link, redirectUri, account);

  beforeAll(async () => {
    const [gatewayPort, upstreamPort] = await Promise.all([freePort(), freePort()]);
    mappedPort = await freePort();
    mappedBase = `http://127.0.0.1:${mappedPort}`;
    const gatewayBase = `http://127.0.0.1:${gatewayPort}`;
    gatewayResource = `${gatewayBase}/mcp`;
    callbackUri = `${gatewayBase}/mcp-upstream-auth/notes/callback`;
    const upstreamResource = `http://127.0.0.1:${upstreamPort}/mcp`;
    proxy = createServer((request, response) => {
      const authorization = request.headers.authorization ?? '';
      if (refuses(authorization)) {
        request.resume();
        response.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"' }).end();
        return;
      }
      const headers = { ...request.headers, host: `127.0.0.1:${upstreamPort}` };
      const onward = httpRequest(
        { host: '127.0.0.1', port: upstreamPort, path: request.url, method: request.method, headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(onward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    as = await TestAuthorizationServer.start({
      scopes: ['notes:read'],
      tenantOf: () => 'acme',
      accessTokenTtlFor: (resource) => (resource === upstreamResource ? UPSTREAM_TOKEN_TTL_SEC : undefined),
      clients: [
        {
          client_id: GATEWAY_CLIENT.id,
          client_secret: GATEWAY_CLIENT.secret,
          grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
          response_types: ['code'],
          redirect_uris: [callbackUri, `${gatewayBase}/mcp-upstream-auth/vault/callback`, `${mappedBase}/mcp-upstream-auth/notes/callback`],
          scope: 'openid offline_access notes:read',
        },
      ],
    });
    upstream = await listenMcp(
      { name: 'notes', version: '1.0.0', auth: { oauth: { issuer: as.issuer, resource: upstreamResource } } },
      [WhoAmITools],
      { port: upstreamPort },
    );
    const client = { issuer: as.issuer, clientId: GATEWAY_CLIENT.id, clientSecret: GATEWAY_CLIENT.secret };
    perUser = {
      ...client,
      scopes: ['notes:read', 'offline_access'],
      publicUrl: gatewayBase,
      encryptionKey: ENCRYPTION_KEY,
      confirmUser: 'same-subject',
    };
    const upstreams = [
      { name: 'notes', url: upstream.url, auth: { authorizationCode: perUser } },
      // Behind the refusing proxy: its tokens are for the upstream itself.
      {
        name: 'vault',
        url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`,
        auth: { authorizationCode: { ...perUser, resource: upstream.url } },
      },
      { name: 'itself', url: upstream.url, auth: { clientCredentials: { ...client, resource: upstream.url, scopes: ['notes:read'] } } },
    ];
    const inbound = { oauth: { issuer: as.issuer, resource: gatewayResource } };
    gateway = await listenMcp({ name: 'gateway', version: '1.0.0', auth: inbound, sources: { upstreams } }, [], { port: gatewayPort });
    for (const account of ['alice', 'bob', 'carol']) tokens[account] = await userToken(as, account, gatewayResource);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(opened.map((client) => client.close()));
    // The gateway first (it holds sessions to the upstream), the authorization server last.
    for (const server of [gateway, upstream, as]) await server?.close();
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it('a user not connected yet gets UPSTREAM_AUTHORIZATION_REQUIRED with a link at the gateway; the gateway’s own upstream answers as itself', async () => {
    const alice = await connect('alice');
    const result = await call(alice, 'notes_whoami');
    expect(result).toEqual({
      status: 'error',
      error: expect.objectContaining({ code: 'UPSTREAM_AUTHORIZATION_REQUIRED', retryable: false }),
    });
    const link = result.error!.authorization_url!;
    expect(link).toMatch(new RegExp(`^${gateway.url.replace(/\/mcp$/, '')}/mcp-upstream-auth/notes/start\\?ticket=[\\w-]{43}$`));
    expect(result.error!.message).toContain(link);
    expect(await call(alice, 'itself_whoami')).toMatchObject({
      status: 'success',
      data: { subject: GATEWAY_CLIENT.id, audience: upstream.url },
    });
  });

  it('confirmUser same-subject: alice’s link completed by bob signing in is refused, nothing is kept, and alice still gets a link', async () => {
    const alice = await connect('alice');
    const link = (await call(alice, 'notes_whoami')).error!.authorization_url!;
    const revocations = as.revocations;
    // Alice (the attacker here) sends her link to bob, who signs in at the authorization server with his account.
    const refused = await connectAccount(link, 'bob');
    expect(refused.status).toBe(403);
    const page = await refused.text();
    expect(page).toContain('not the one this link was handed out for');
    expect(page).not.toMatch(/eyJ|token=|bob/);
    // The tokens issued to bob's sign-in are revoked at the authorization server, not kept for alice.
    expect(as.revocations - revocations).toBe(1);
    expect((await call(alice, 'notes_whoami')).error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
    expect((await call(await connect('bob'), 'notes_whoami')).error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
  });

  it('the link starts the code flow with PKCE and the upstream’s resource; afterwards the user’s calls carry their own token', async () => {
    const alice = await connect('alice');
    const link = (await call(alice, 'notes_whoami')).error!.authorization_url!;
    const start = await fetch(link, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin + authorize.pathname).toBe(`${as.issuer}/auth`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: GATEWAY_CLIENT.id,
      redirect_uri: callbackUri,
      code_challenge_method: 'S256',
      resource: upstream.url,
      // openid: the ID token that confirms who signed in, bound to this flow by its nonce.
      scope: 'openid notes:read offline_access',
      nonce: expect.stringMatching(/^[\w-]{43}$/),
    });
    // The ticket is single-use: the link opened again is refused.
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(400);

    const back = await authorizeOverHttp(authorize.href, callbackUri, 'alice');
    expect(back.searchParams.get('iss')).toBe(as.issuer);
    const done = await fetch(back, { redirect: 'manual' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('connected');
    // The state is single-use too: the same callback again is refused, and connects nobody.
    expect((await fetch(back, { redirect: 'manual' })).status).toBe(400);

    expect(await call(alice, 'notes_whoami')).toMatchObject({ status: 'success', data: { subject: 'alice', audience: upstream.url } });
    // At rest in the store: sealed (AES-256-GCM), under a key that names neither the tenant nor the user.
    const store = gateway.app.get<McpKeyValueStore>(MCP_STORE, { strict: false });
    const key = `mcp:upstream-auth:tokens:notes:${createHash('sha256').update('acme\nalice').digest('base64url')}`;
    const stored = await store.get<Record<string, string>>(key);
    expect(Object.keys(stored ?? {}).sort()).toEqual(['data', 'iv', 'tag']);
    // Ciphertext is random base64, which holds `eyJ` by chance (CI saw it): look for what a leak would hold instead,
    // a JWT (base64 never holds its dots) or the subject among the sealed bytes.
    expect(JSON.stringify(stored)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(Buffer.from(stored!.data, 'base64').includes('alice')).toBe(false);
    // Another connection of the same user is the same user upstream.
    expect(await call(await connect('alice'), 'notes_whoami')).toMatchObject({ status: 'success', data: { subject: 'alice' } });
  });

  it('two users never see each other’s upstream identity: bob still gets a link, then his own subject', async () => {
    const bob = await connect('bob');
    const first = await call(bob, 'notes_whoami');
    expect(first.error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
    expect((await connectAccount(first.error!.authorization_url!, 'bob')).status).toBe(200);
    const [bobs, alices] = await Promise.all([call(bob, 'notes_whoami'), call(await connect('alice'), 'notes_whoami')]);
    expect(bobs).toMatchObject({ status: 'success', data: { subject: 'bob' } });
    expect(alices).toMatchObject({ status: 'success', data: { subject: 'alice' } });
  });

  it('a callback whose iss names another server is refused (RFC 9207), and connects nobody', async () => {
    const carol = await connect('carol');
    const link = (await call(carol, 'notes_whoami')).error!.authorization_url!;
    const back = await authorizeOverHttp(link, callbackUri, 'carol');
    back.searchParams.set('iss', 'http://127.0.0.1:1/evil');
    expect((await fetch(back, { redirect: 'manual' })).status).toBe(400);
    expect((await call(carol, 'notes_whoami')).error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
  });

  it('2026-07-28 with URL-mode elicitation: the call asks through an input_required round, and its retry succeeds', async () => {
    const client = new Client(
      { name: 'per-user-carol-2026', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const asked: { mode?: unknown; url?: unknown }[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode?: string; url?: string };
      asked.push(params);
      const done = await connectAccount(params.url!, 'carol');
      return { action: done.status === 200 ? 'accept' : 'cancel' };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${tokens.carol}` } } }),
    );
    opened.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'notes_whoami', arguments: {} });
    expect(asked).toEqual([
      expect.objectContaining({ mode: 'url', url: expect.stringContaining('/mcp-upstream-auth/notes/start?ticket=') }),
    ]);
    expect(result.structuredContent).toMatchObject({ status: 'success', data: { subject: 'carol' } });
  });

  it('refreshes a user’s upstream token once it nears expiry (the upstream refuses an expired one)', async () => {
    const alice = await connect('alice');
    const before = await call(alice, 'notes_whoami');
    expect(before.data.subject).toBe('alice');
    await new Promise((resolve) => setTimeout(resolve, UPSTREAM_TOKEN_TTL_SEC * 1_000 + 500));
    const after = await call(alice, 'notes_whoami');
    expect(after).toMatchObject({ status: 'success', data: { subject: 'alice' } });
    expect(after.data.jti).not.toBe(before.data.jti);
  });

  it('a user disconnects with disconnect_notes: their next call asks again, the other user stays connected', async () => {
    const bob = await connect('bob');
    expect((await bob.listTools()).tools.map((tool) => tool.name)).toContain('disconnect_notes');
    const revocations = as.revocations;
    expect(await call(bob, 'disconnect_notes')).toMatchObject({ status: 'success', data: { upstream: 'notes', disconnected: true } });
    // Its refresh token revoked at the authorization server (it has a revocation endpoint).
    expect(as.revocations - revocations).toBe(1);
    expect((await call(bob, 'notes_whoami')).error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
    expect(await call(bob, 'disconnect_notes')).toMatchObject({ status: 'success', data: { disconnected: false } });
    expect(await call(await connect('alice'), 'notes_whoami')).toMatchObject({ status: 'success', data: { subject: 'alice' } });
  });

  it('a token the upstream refuses (401) before it expires is replaced by a refreshed one; refused again, the user connects again', async () => {
    const alice = await connect('alice');
    const link = (await call(alice, 'vault_whoami')).error!.authorization_url!;
    expect((await connectAccount(link, 'alice', `${gateway.url.replace(/\/mcp$/, '')}/mcp-upstream-auth/vault/callback`)).status).toBe(200);
    const before = await call(alice, 'vault_whoami');
    expect(before).toMatchObject({ status: 'success', data: { subject: 'alice', audience: upstream.url } });
    // The upstream stops accepting the access token the gateway holds (revoked there, say), long before it expires.
    refuses = (authorization) => claimsOf(authorization).jti === before.data.jti;
    const after = await call(alice, 'vault_whoami');
    expect(after).toMatchObject({ status: 'success', data: { subject: 'alice' } });
    expect(after.data.jti).not.toBe(before.data.jti);
    // Now it refuses every token of alice's: the refreshed one too. The connection is forgotten and she is asked again.
    refuses = (authorization) => claimsOf(authorization).sub === 'alice';
    expect((await call(alice, 'vault_whoami')).error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
    refuses = () => false;
    expect((await call(alice, 'vault_whoami')).error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
    expect(await call(alice, 'notes_whoami')).toMatchObject({ status: 'success', data: { subject: 'alice' } });
  });

  it('confirmUser a function: it is given the gateway user and the verified ID token claims, and decides', async () => {
    const seen: { user: { tenant?: string; subject: string }; claims: Record<string, unknown> }[] = [];
    // Two identity providers in one here: the gateway's user "dave" is "dave.notes" at the upstream's.
    const confirmUser = (user: { tenant?: string; subject: string }, claims: Record<string, unknown>) => {
      seen.push({ user, claims });
      return claims.sub === `${user.subject}.notes`;
    };
    const mappedResource = `${mappedBase}/mcp`;
    const mapped = await listenMcp(
      {
        name: 'mapped-gateway',
        version: '1.0.0',
        auth: { oauth: { issuer: as.issuer, resource: mappedResource } },
        sources: {
          upstreams: [
            { name: 'notes', url: upstream.url, auth: { authorizationCode: { ...perUser, publicUrl: mappedBase, confirmUser } } },
          ],
        },
      },
      [],
      { port: mappedPort },
    );
    try {
      const redirectUri = `${mappedBase}/mcp-upstream-auth/notes/callback`;
      const dave = await connect('dave', mapped.url, await userToken(as, 'dave', mappedResource));
      const first = (await call(dave, 'notes_whoami')).error!.authorization_url!;
      expect((await connectAccount(first, 'erin.notes', redirectUri)).status).toBe(403);
      expect(seen).toEqual([
        {
          user: { tenant: 'acme', subject: 'dave' },
          claims: expect.objectContaining({ iss: as.issuer, aud: GATEWAY_CLIENT.id, sub: 'erin.notes', nonce: expect.any(String) }),
        },
      ]);
      const second = (await call(dave, 'notes_whoami')).error!.authorization_url!;
      expect((await connectAccount(second, 'dave.notes', redirectUri)).status).toBe(200);
      expect(seen[1]?.claims.sub).toBe('dave.notes');
      expect(await call(dave, 'notes_whoami')).toMatchObject({
        status: 'success',
        data: { subject: 'dave.notes', audience: upstream.url },
      });
    } finally {
      await mapped.close();
    }
  });

  /** Per-user options that boot (the callback URL is never reached): the boot tests take one thing away at a time. */
  const bootableAuthorizationCode = () => ({
    issuer: as.issuer,
    clientId: GATEWAY_CLIENT.id,
    clientSecret: GATEWAY_CLIENT.secret,
    publicUrl: 'http://127.0.0.1:1',
    encryptionKey: ENCRYPTION_KEY,
    confirmUser: 'same-subject' as const,
  });

  it('refuses to boot without an encryption key, without a confirmUser decision, or without inbound auth; warns on unverified', async () => {
    const authorizationCode = bootableAuthorizationCode();
    const boot = (auth: object | undefined, code: Record<string, unknown>, logger?: RecordingLogger) =>
      initApp(
        [
          McpModule.forRoot({
            name: 'misconfigured',
            version: '1.0.0',
            ...(auth && { auth }),
            sources: { upstreams: [{ name: 'notes', url: upstream.url, auth: { authorizationCode: code as typeof authorizationCode } }] },
          }),
        ],
        { logger },
      ).catch((thrown: unknown) => thrown);
    const oauth = { oauth: { issuer: as.issuer, resource: gatewayResource } };
    const { encryptionKey: _key, ...keyless } = authorizationCode;
    expect(await boot(oauth, keyless)).toMatchObject({ code: 'MCP_ERR_UPSTREAM_USER_AUTH_KEY' });
    expect(await boot(oauth, { ...authorizationCode, encryptionKey: 'short' })).toMatchObject({ code: 'MCP_ERR_UPSTREAM_USER_AUTH_KEY' });
    const anonymous = await boot(undefined, authorizationCode);
    expect(anonymous).toMatchObject({ code: 'MCP_ERR_UPSTREAM_USER_AUTH_NO_USERS' });
    expect((anonymous as Error).message).toContain('sources.upstreams[0].auth.authorizationCode');
    const { confirmUser: _confirm, ...undecided } = authorizationCode;
    const unconfirmed = await boot(oauth, undecided);
    expect(unconfirmed).toMatchObject({ code: 'MCP_ERR_UPSTREAM_USER_AUTH_CONFIRM' });
    expect((unconfirmed as Error).message).toMatch(/'same-subject'.*a function.*'unverified'/);
    const logger = new RecordingLogger();
    expect(await boot(oauth, { ...authorizationCode, confirmUser: 'unverified' }, logger)).toBeUndefined();
    expect(logger.warnings.filter((line) => line.startsWith('MCP_WARN_UPSTREAM_USER_UNVERIFIED: '))).toHaveLength(1);
  });

  it('with forRootAsync, maps its routes only when asked (upstreamAuthRoutes) and refuses to boot unmapped', async () => {
    const options = {
      name: 'async-gateway',
      version: '1.0.0',
      auth: { oauth: { issuer: as.issuer, resource: gatewayResource } },
      sources: {
        upstreams: [
          {
            name: 'notes',
            url: upstream.url,
            auth: { authorizationCode: bootableAuthorizationCode() },
          },
        ],
      },
    };
    const unmapped = await initApp([McpModule.forRootAsync({ useFactory: () => options })]).catch((thrown: unknown) => thrown);
    expect(unmapped).toMatchObject({ code: 'MCP_ERR_UPSTREAM_USER_AUTH_ROUTES' });
    const app = await listen([McpModule.forRootAsync({ useFactory: () => options, upstreamAuthRoutes: true })]);
    try {
      const start = await fetch(new URL('/mcp-upstream-auth/notes/start?ticket=unknown', app.url), { redirect: 'manual' });
      expect(start.status).toBe(400);
    } finally {
      await app.close();
    }
  });
});
