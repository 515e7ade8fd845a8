import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpAuthError, type McpAuthenticator } from '@nest-mcp/core';
import { SEC_TOOL_NAMES, startSecApp } from './fixtures/sec-app.js';
import {
  HS_SECRET,
  keyPair,
  OTHER_HS_SECRET,
  signToken,
  startJwksServer,
  tamperedToken,
  unsignedToken,
  type JwksServer,
  type KeyPair,
} from './fixtures/tokens.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, expectNoLeak, type HttpAnswer, post, rpc, send, toolNames } from '../kit/http.js';

/**
 * Authentication of every MCP route over a real socket: 401 challenges (RFC 6750 / RFC 9728), JWT verification
 * (HS256 secret, RS256 JWKS, ES256 public key), claims → principal, API keys, and no leaks.
 */

const RESOURCE = 'https://mcp.example.com/mcp';
const AUTH_SERVER = 'https://auth.example.com';
const METADATA_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

const API_KEY_READ = 'sec-api-key-read-only-0123456789';
const API_KEY_RW = 'sec-api-key-read-write-987654321';

/** Asserts a 401 with the JSON-RPC error carrying the envelope, and the challenge header. */
function expect401(
  answer: HttpAnswer,
  code: 'UNAUTHORIZED' | 'INVALID_TOKEN' | 'TOKEN_EXPIRED',
  options: { metadata?: boolean } = {},
): void {
  expect(answer.status).toBe(401);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(answer.json).toEqual({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: expect.any(Number),
      message: expect.stringMatching(/\S/),
      data: { status: 'error', error: { code, retryable: false, message: expect.stringMatching(/\S/) } },
    },
  });
  expect(Number.isInteger(answer.json.error.code)).toBe(true);
  const challenge = answer.headers.get('www-authenticate');
  expect(challenge).not.toBeNull();
  expect(challenge).toMatch(/^Bearer realm="mcp"/);
  if (code === 'UNAUTHORIZED') expect(challenge).not.toContain('error=');
  else expect(challenge).toContain('error="invalid_token"');
  if (options.metadata) expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
  else expect(challenge).not.toContain('resource_metadata');
}

type RouteCall = (app: RunningApp, headers: Record<string, string>) => Promise<HttpAnswer>;

/** Every MCP route, called as a client would. */
const ROUTES: [string, RouteCall][] = [
  ['POST /mcp', (app, headers) => post(app.url, rpc(1, 'ping'), headers)],
  ['GET /mcp', (app, headers) => send(app.url, { method: 'GET', headers: { Accept: 'text/event-stream', ...headers } })],
  ['DELETE /mcp', (app, headers) => send(app.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': 'some-session', ...headers } })],
  ['GET /sse', (app, headers) => send(`${app.base}/sse`, { method: 'GET', headers: { Accept: 'text/event-stream', ...headers } })],
  ['POST /messages', (app, headers) => post(`${app.base}/messages?sessionId=some-session`, rpc(1, 'ping'), headers)],
];

describe('authentication on every MCP route', () => {
  describe('without resource metadata', () => {
    let app: RunningApp;
    beforeAll(async () => {
      app = await startSecApp({
        auth: { jwt: { secret: HS_SECRET }, apiKeys: [{ key: API_KEY_RW, tenant: 'acme', scopes: ['sec:read', 'sec:write'] }] },
      });
    });
    afterAll(() => app?.close());

    it.each(ROUTES)('%s without credentials → 401 UNAUTHORIZED, WWW-Authenticate: Bearer realm="mcp"', async (_name, call) => {
      const answer = await call(app, {});
      expect401(answer, 'UNAUTHORIZED');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
      // API keys are configured here: the hint names both ways.
      expect(JSON.stringify(answer.json)).toContain('send Authorization: Bearer <token> or X-API-Key');
    });

    it.each(ROUTES)('%s with a bad Bearer token → 401 INVALID_TOKEN', async (_name, call) => {
      const token = tamperedToken(await signToken({ sub: 'mallory' }, HS_SECRET), { sub: 'admin', scope: 'sec:read sec:write' });
      const answer = await call(app, { Authorization: `Bearer ${token}` });
      expect401(answer, 'INVALID_TOKEN');
      expectNoLeak(answer, [token, HS_SECRET]);
    });

    it.each(ROUTES)('%s with a wrong X-API-Key → 401 INVALID_TOKEN', async (_name, call) => {
      const answer = await call(app, { 'X-API-Key': 'sec-api-key-wrong-000000000000' });
      expect401(answer, 'INVALID_TOKEN');
      expectNoLeak(answer, ['sec-api-key-wrong-000000000000', API_KEY_RW]);
    });

    it('valid credentials get past authentication on every route', async () => {
      const headers = { 'X-API-Key': API_KEY_RW };
      expect((await post(app.url, rpc(1, 'ping'), headers)).status).toBe(200);
      // No session: 400/404 from the transport, not 401.
      expect((await send(app.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': 'nope', ...headers } })).status).toBe(404);
      expect((await post(`${app.base}/messages?sessionId=nope`, rpc(1, 'ping'), headers)).status).toBe(404);
      expect((await send(app.url, { method: 'GET', headers: { Accept: 'application/json', ...headers } })).status).toBe(400);
      const controller = new AbortController();
      const sse = await fetch(`${app.base}/sse`, { headers: { Accept: 'text/event-stream', ...headers }, signal: controller.signal });
      expect(sse.status).toBe(200);
      expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
      controller.abort();
    });

    it('a token in the query string is not a credential (bearer_methods_supported is header only)', async () => {
      const token = await signToken({ sub: 'alice' }, HS_SECRET);
      const answer = await post(`${app.url}?access_token=${token}`, rpc(1, 'ping'));
      expect401(answer, 'UNAUTHORIZED');
    });

    it('a non-Bearer Authorization scheme is not a credential', async () => {
      const answer = await post(app.url, rpc(1, 'ping'), { Authorization: `Basic ${Buffer.from(`x:${API_KEY_RW}`).toString('base64')}` });
      expect401(answer, 'UNAUTHORIZED');
    });

    it('the session id is never a credential: a valid session without credentials → 401', async () => {
      const init = await post(
        app.url,
        rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
        { 'X-API-Key': API_KEY_RW },
      );
      const sessionId = init.headers.get('mcp-session-id')!;
      expect(sessionId).toBeTruthy();
      expect401(await post(app.url, rpc(2, 'tools/list'), { 'Mcp-Session-Id': sessionId }), 'UNAUTHORIZED');
    });
  });

  describe('with auth.resourceMetadata', () => {
    let app: RunningApp;
    beforeAll(async () => {
      app = await startSecApp({
        auth: { jwt: { secret: HS_SECRET }, resourceMetadata: { resource: RESOURCE, authorizationServers: [AUTH_SERVER] } },
      });
    });
    afterAll(() => app?.close());

    it.each(ROUTES)('%s without credentials → 401 whose challenge points at the resource metadata', async (_name, call) => {
      const answer = await call(app, {});
      expect401(answer, 'UNAUTHORIZED', { metadata: true });
      expect(answer.headers.get('www-authenticate')).toBe(`Bearer realm="mcp", resource_metadata="${METADATA_URL}"`);
    });

    it('an invalid token → 401 with error="invalid_token" and resource_metadata', async () => {
      const answer = await post(app.url, rpc(1, 'ping'), { Authorization: 'Bearer not-a-token' });
      expect401(answer, 'INVALID_TOKEN', { metadata: true });
    });
  });
});

describe('HS256 JWT (auth.jwt.secret)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({ auth: { jwt: { secret: HS_SECRET } } });
  });
  afterAll(() => app?.close());

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('a valid token is accepted; the principal reaches the tool', async () => {
    const token = await signToken({ sub: 'alice', tenant_id: 'acme', scope: 'sec:read' }, HS_SECRET);
    const answer = await post(app.url, callTool(1, 'whoami'), bearer(token));
    expect(answer.status).toBe(200);
    expect(envelopeOf(answer)).toEqual({ status: 'success', data: { tenant: 'acme', subject: 'alice', scopes: ['sec:read'] } });
    expectNoLeak(answer, [token, HS_SECRET]);
  });

  it('a bad signature (payload swapped after signing) → INVALID_TOKEN', async () => {
    const token = tamperedToken(await signToken({ sub: 'alice', tenant_id: 'acme' }, HS_SECRET), { sub: 'alice', tenant_id: 'victim' });
    const answer = await post(app.url, rpc(1, 'ping'), bearer(token));
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [token, HS_SECRET]);
  });

  it.each([
    ['garbage', 'garbage'],
    ['two segments', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0'],
    ['non-JSON segments', 'abc.def.ghi'],
    ['empty segments', '..'],
    ['a header that is not JSON', `${Buffer.from('{not json').toString('base64url')}.e30.sig`],
  ])('a malformed token (%s) → INVALID_TOKEN', async (_name, token) => {
    const answer = await post(app.url, rpc(1, 'ping'), bearer(token));
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [HS_SECRET]);
  });

  it('an alg:none token (built by hand, empty signature) → INVALID_TOKEN', async () => {
    const token = unsignedToken({ sub: 'alice', tenant_id: 'acme', scope: 'sec:read sec:write' });
    expect(token.endsWith('.')).toBe(true);
    const answer = await post(app.url, callTool(1, 'write_thing'), bearer(token));
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [token]);
  });

  it('a token signed with another secret → INVALID_TOKEN', async () => {
    const token = await signToken({ sub: 'alice' }, OTHER_HS_SECRET);
    const answer = await post(app.url, rpc(1, 'ping'), bearer(token));
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [token, HS_SECRET, OTHER_HS_SECRET]);
  });

  it('HS512 with the right secret is refused: only HS256 is allowed by default', async () => {
    const token = await signToken({ sub: 'alice' }, HS_SECRET, { alg: 'HS512' });
    expect401(await post(app.url, rpc(1, 'ping'), bearer(token)), 'INVALID_TOKEN');
  });

  it('an expired token → TOKEN_EXPIRED (challenge error="invalid_token")', async () => {
    const token = await signToken({ sub: 'alice' }, HS_SECRET, { expiresIn: -3600 });
    const answer = await post(app.url, rpc(1, 'ping'), bearer(token));
    expect401(answer, 'TOKEN_EXPIRED');
    expectNoLeak(answer, [token, HS_SECRET]);
  });

  it('a token expired within the 5 s clock tolerance is still accepted', async () => {
    const token = await signToken({ sub: 'alice' }, HS_SECRET, { expiresIn: -2 });
    expect((await post(app.url, rpc(1, 'ping'), bearer(token))).status).toBe(200);
  });

  it('nbf in the future → INVALID_TOKEN', async () => {
    const token = await signToken({ sub: 'alice' }, HS_SECRET, { notBefore: 3600 });
    expect401(await post(app.url, rpc(1, 'ping'), bearer(token)), 'INVALID_TOKEN');
  });

  it('a token without sub (and without tenant_id) → INVALID_TOKEN', async () => {
    const token = await signToken({ scope: 'sec:read' }, HS_SECRET);
    expect401(await post(app.url, rpc(1, 'ping'), bearer(token)), 'INVALID_TOKEN');
  });

  it('a JWT sent as X-API-Key is not accepted (no API keys configured)', async () => {
    const token = await signToken({ sub: 'alice' }, HS_SECRET);
    const answer = await post(app.url, rpc(1, 'ping'), { 'X-API-Key': token });
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [token]);
  });
});

describe('JWT lifetime (auth.jwt.requireExp, auth.jwt.maxTokenLifetimeSec)', () => {
  let app: RunningApp;
  let lenient: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({ auth: { jwt: { secret: HS_SECRET } } });
    lenient = await startSecApp({ auth: { jwt: { secret: HS_SECRET, requireExp: false, maxTokenLifetimeSec: 600 } } });
  });
  afterAll(async () => {
    await app?.close();
    await lenient?.close();
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const DAY = 86_400;

  it.each<[string, Parameters<typeof signToken>[2]]>([
    ['no exp claim', { expiresIn: null }],
    ['no exp and no iat', { expiresIn: null, issuedAt: null }],
    ['exp: 1e300', { expiresIn: 1e300 }],
    ['exp two days ahead', { expiresIn: 2 * DAY }],
    ['exp two days ahead, no iat', { expiresIn: 2 * DAY, issuedAt: null }],
    ['issued ten days ago, valid one more hour (lifetime beyond iat)', { issuedAt: -10 * DAY, expiresIn: 3600 }],
    ['iat ten minutes in the future', { issuedAt: 600 }],
  ])('by default, a token with %s → 401 INVALID_TOKEN', async (_name, options) => {
    const token = await signToken({ sub: 'alice', tenant_id: 'acme' }, HS_SECRET, options);
    const answer = await post(app.url, rpc(1, 'ping'), bearer(token));
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [token, HS_SECRET]);
  });

  it.each<[string, Parameters<typeof signToken>[2]]>([
    ['exp one hour ahead', { expiresIn: 3600 }],
    ['exp exactly one day after iat', { expiresIn: DAY }],
    ['exp one hour ahead and no iat', { expiresIn: 3600, issuedAt: null }],
    ['iat 2 s ahead (within the clock tolerance)', { issuedAt: 2 }],
  ])('by default, a token with %s is accepted', async (_name, options) => {
    const token = await signToken({ sub: 'alice', tenant_id: 'acme' }, HS_SECRET, options);
    expect((await post(app.url, callTool(1, 'whoami'), bearer(token))).status).toBe(200);
  });

  it('requireExp: false accepts a token without exp', async () => {
    const token = await signToken({ sub: 'alice' }, HS_SECRET, { expiresIn: null });
    expect((await post(lenient.url, rpc(1, 'ping'), bearer(token))).status).toBe(200);
  });

  it('maxTokenLifetimeSec: 600 refuses a one-hour token and accepts a five-minute one', async () => {
    expect401(
      await post(lenient.url, rpc(1, 'ping'), bearer(await signToken({ sub: 'alice' }, HS_SECRET, { expiresIn: 3600 }))),
      'INVALID_TOKEN',
    );
    expect((await post(lenient.url, rpc(1, 'ping'), bearer(await signToken({ sub: 'alice' }, HS_SECRET, { expiresIn: 300 })))).status).toBe(
      200,
    );
  });
});

describe('JWT audience and issuer (auth.jwt.audience / issuer)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({ auth: { jwt: { secret: HS_SECRET, audience: RESOURCE, issuer: AUTH_SERVER } } });
  });
  afterAll(() => app?.close());

  const ping = async (options: { audience?: string; issuer?: string }) =>
    post(app.url, rpc(1, 'ping'), { Authorization: `Bearer ${await signToken({ sub: 'alice' }, HS_SECRET, options)}` });

  it('the right aud and iss → accepted', async () => {
    expect((await ping({ audience: RESOURCE, issuer: AUTH_SERVER })).status).toBe(200);
  });

  it('a token for another resource (wrong aud) → INVALID_TOKEN', async () => {
    expect401(await ping({ audience: 'https://other.example.com/mcp', issuer: AUTH_SERVER }), 'INVALID_TOKEN');
  });

  it('a token without aud → INVALID_TOKEN', async () => {
    expect401(await ping({ issuer: AUTH_SERVER }), 'INVALID_TOKEN');
  });

  it('a token from another issuer → INVALID_TOKEN', async () => {
    expect401(await ping({ audience: RESOURCE, issuer: 'https://evil.example.com' }), 'INVALID_TOKEN');
  });

  it('a token without iss → INVALID_TOKEN', async () => {
    expect401(await ping({ audience: RESOURCE }), 'INVALID_TOKEN');
  });
});

describe('RS256 with a JWKS (auth.jwt.jwksUrl, algorithms: [RS256])', () => {
  let jwks: JwksServer;
  let rsa: KeyPair;
  let ec: KeyPair;
  let app: RunningApp;

  beforeAll(async () => {
    rsa = await keyPair('RS256', 'rs-key-1');
    ec = await keyPair('ES256', 'ec-key-1');
    jwks = await startJwksServer([rsa.publicJwk, ec.publicJwk]);
    app = await startSecApp({ auth: { jwt: { jwksUrl: jwks.url, algorithms: ['RS256'] } } });
  });
  afterAll(async () => {
    await app?.close();
    await jwks?.close();
  });

  const ping = (token: string) => post(app.url, rpc(1, 'ping'), { Authorization: `Bearer ${token}` });

  it('a token signed by the JWKS key (matching kid) → accepted; the JWKS was fetched from loopback', async () => {
    const token = await signToken({ sub: 'rs-user', tenant_id: 'rs-tenant', scope: 'sec:read' }, rsa.privateKey, {
      alg: 'RS256',
      kid: rsa.kid,
    });
    const answer = await post(app.url, callTool(1, 'whoami'), { Authorization: `Bearer ${token}` });
    expect(answer.status).toBe(200);
    expect(envelopeOf(answer).data).toEqual({ tenant: 'rs-tenant', subject: 'rs-user', scopes: ['sec:read'] });
    expect(jwks.hits).toBeGreaterThan(0);
  });

  it('a token signed by another RSA key under the same kid → INVALID_TOKEN', async () => {
    const impostor = await keyPair('RS256', rsa.kid);
    const token = await signToken({ sub: 'rs-user' }, impostor.privateKey, { alg: 'RS256', kid: rsa.kid });
    expect401(await ping(token), 'INVALID_TOKEN');
  });

  it('a token with an unknown kid → INVALID_TOKEN', async () => {
    const other = await keyPair('RS256', 'unknown-kid');
    const token = await signToken({ sub: 'rs-user' }, other.privateKey, { alg: 'RS256', kid: 'unknown-kid' });
    expect401(await ping(token), 'INVALID_TOKEN');
  });

  it('an HS256 token (only RS256 allowed) → INVALID_TOKEN', async () => {
    const token = await signToken({ sub: 'rs-user' }, HS_SECRET, { kid: rsa.kid });
    expect401(await ping(token), 'INVALID_TOKEN');
  });

  it('algorithm confusion: HS256 keyed with the public key PEM → INVALID_TOKEN', async () => {
    const token = await signToken({ sub: 'rs-user' }, rsa.publicPem, { kid: rsa.kid });
    expect401(await ping(token), 'INVALID_TOKEN');
  });

  it('a valid ES256 token from the same JWKS is refused when only RS256 is allowed', async () => {
    const token = await signToken({ sub: 'ec-user' }, ec.privateKey, { alg: 'ES256', kid: ec.kid });
    expect401(await ping(token), 'INVALID_TOKEN');
  });

  it('an alg:none token with a known kid → INVALID_TOKEN', async () => {
    expect401(await ping(unsignedToken({ sub: 'rs-user' })), 'INVALID_TOKEN');
  });

  it('an expired RS256 token → TOKEN_EXPIRED', async () => {
    const token = await signToken({ sub: 'rs-user' }, rsa.privateKey, { alg: 'RS256', kid: rsa.kid, expiresIn: -600 });
    expect401(await ping(token), 'TOKEN_EXPIRED');
  });

  it('an unreachable JWKS → 401 INVALID_TOKEN, never 5xx', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await startSecApp({ auth: { jwt: { jwksUrl: `http://127.0.0.1:${port}/jwks.json` } } });
    try {
      const token = await signToken({ sub: 'rs-user' }, rsa.privateKey, { alg: 'RS256', kid: rsa.kid });
      const answer = await post(down.url, rpc(1, 'ping'), { Authorization: `Bearer ${token}` });
      expect401(answer, 'INVALID_TOKEN');
      expectNoLeak(answer, [token, String(port)]);
    } finally {
      await down.close();
    }
  });
});

describe('ES256 with a PEM public key (auth.jwt.publicKey)', () => {
  let ec: KeyPair;
  let app: RunningApp;
  beforeAll(async () => {
    ec = await keyPair('ES256', 'ec-pem');
    app = await startSecApp({ auth: { jwt: { publicKey: ec.publicPem } } });
  });
  afterAll(() => app?.close());

  const ping = (token: string) => post(app.url, rpc(1, 'ping'), { Authorization: `Bearer ${token}` });

  it('an ES256 token signed by the matching private key → accepted', async () => {
    const token = await signToken({ sub: 'ec-user', scp: ['sec:read'] }, ec.privateKey, { alg: 'ES256' });
    const answer = await post(app.url, callTool(1, 'whoami'), { Authorization: `Bearer ${token}` });
    expect(envelopeOf(answer).data).toEqual({ tenant: 'ec-user', subject: 'ec-user', scopes: ['sec:read'] });
  });

  it('an ES256 token signed by another key → INVALID_TOKEN', async () => {
    const other = await keyPair('ES256', 'other');
    expect401(await ping(await signToken({ sub: 'ec-user' }, other.privateKey, { alg: 'ES256' })), 'INVALID_TOKEN');
  });

  it('algorithm confusion: HS256 keyed with the PEM text → INVALID_TOKEN', async () => {
    expect401(await ping(await signToken({ sub: 'ec-user' }, ec.publicPem)), 'INVALID_TOKEN');
  });

  it('alg:none → INVALID_TOKEN', async () => {
    expect401(await ping(unsignedToken({ sub: 'ec-user' })), 'INVALID_TOKEN');
  });
});

describe('claims → principal (tenant and scopes)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({ auth: { jwt: { secret: HS_SECRET } } });
  });
  afterAll(() => app?.close());

  const as = async (claims: Record<string, unknown>) => ({ Authorization: `Bearer ${await signToken(claims, HS_SECRET)}` });
  const whoami = async (claims: Record<string, unknown>) => envelopeOf(await post(app.url, callTool(1, 'whoami'), await as(claims))).data;

  it('tenant comes from tenant_id', async () => {
    expect(await whoami({ sub: 'alice', tenant_id: 'acme' })).toMatchObject({ tenant: 'acme', subject: 'alice' });
  });

  it('tenant falls back to sub without tenant_id (or with an empty one)', async () => {
    expect(await whoami({ sub: 'bob' })).toMatchObject({ tenant: 'bob', subject: 'bob' });
    expect(await whoami({ sub: 'bob', tenant_id: '' })).toMatchObject({ tenant: 'bob' });
  });

  it('a non-string tenant_id does not become the tenant', async () => {
    expect(await whoami({ sub: 'carol', tenant_id: { $ne: null } })).toMatchObject({ tenant: 'carol' });
    expect(await whoami({ sub: 'carol', tenant_id: ['acme'] })).toMatchObject({ tenant: 'carol' });
  });

  it('scopes come from a space-separated scope string', async () => {
    expect((await whoami({ sub: 'alice', scope: 'sec:read sec:write' })).scopes).toEqual(['sec:read', 'sec:write']);
  });

  it('scopes come from an scp array', async () => {
    expect((await whoami({ sub: 'alice', scp: ['sec:read', 'sec:write'] })).scopes).toEqual(['sec:read', 'sec:write']);
  });

  it('tools/list shows exactly the tools the scopes allow', async () => {
    const unscoped = SEC_TOOL_NAMES.filter((name) => name !== 'read_thing' && name !== 'write_thing');
    expect(toolNames(await post(app.url, rpc(1, 'tools/list'), await as({ sub: 'a' })))).toEqual(unscoped);
    expect(toolNames(await post(app.url, rpc(1, 'tools/list'), await as({ sub: 'a', scope: 'sec:read' })))).toEqual(
      [...unscoped, 'read_thing'].sort(),
    );
    expect(toolNames(await post(app.url, rpc(1, 'tools/list'), await as({ sub: 'a', scp: ['sec:read', 'sec:write'] })))).toEqual(
      SEC_TOOL_NAMES,
    );
  });

  it('a scope only as a prefix or in another claim grants nothing', async () => {
    const names = toolNames(
      await post(
        app.url,
        rpc(1, 'tools/list'),
        await as({ sub: 'a', scope: 'sec:read:extra sec', scopes: ['sec:write'], roles: ['sec:write'] }),
      ),
    );
    expect(names).not.toContain('read_thing');
    expect(names).not.toContain('write_thing');
  });
});

describe('API keys (auth.apiKeys)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        jwt: { secret: HS_SECRET },
        apiKeys: [
          { key: API_KEY_READ, tenant: 'reader-co', scopes: ['sec:read'] },
          { key: API_KEY_RW, tenant: 'writer-co', scopes: ['sec:read', 'sec:write'] },
        ],
      },
    });
  });
  afterAll(() => app?.close());

  it('X-API-Key: <key> authenticates as that key', async () => {
    const answer = await post(app.url, callTool(1, 'whoami'), { 'X-API-Key': API_KEY_READ });
    expect(envelopeOf(answer).data).toMatchObject({ tenant: 'reader-co', scopes: ['sec:read'] });
    expectNoLeak(answer, [API_KEY_READ]);
  });

  it('Authorization: Bearer <key> authenticates as that key', async () => {
    const answer = await post(app.url, callTool(1, 'whoami'), { Authorization: `Bearer ${API_KEY_RW}` });
    expect(envelopeOf(answer).data).toMatchObject({ tenant: 'writer-co', scopes: ['sec:read', 'sec:write'] });
    expectNoLeak(answer, [API_KEY_RW]);
  });

  it.each([
    ['X-API-Key', { 'X-API-Key': 'sec-api-key-read-only-0123456780' }],
    ['Bearer', { Authorization: 'Bearer sec-api-key-read-only-0123456780' }],
    ['X-API-Key, a prefix of a real key', { 'X-API-Key': API_KEY_READ.slice(0, -1) }],
    ['X-API-Key, a real key plus a suffix', { 'X-API-Key': `${API_KEY_READ}x` }],
    ['X-API-Key, upper-cased key', { 'X-API-Key': API_KEY_READ.toUpperCase() }],
    ['X-API-Key, empty', { 'X-API-Key': '' }],
  ])('a wrong key (%s) → 401 INVALID_TOKEN', async (_name, headers) => {
    const answer = await post(app.url, rpc(1, 'ping'), headers as Record<string, string>);
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [API_KEY_READ, API_KEY_RW, ...Object.values(headers as Record<string, string>)]);
  });

  it('a JWT still works beside the API keys', async () => {
    const token = await signToken({ sub: 'jwt-user', tenant_id: 'jwt-co' }, HS_SECRET);
    expect(envelopeOf(await post(app.url, callTool(1, 'whoami'), { Authorization: `Bearer ${token}` })).data).toMatchObject({
      tenant: 'jwt-co',
    });
  });
});

describe('custom authenticator (auth.authenticator) failures', () => {
  let app: RunningApp;
  const authenticator: McpAuthenticator = {
    async authenticate(credentials) {
      const token = credentials.bearer;
      if (token === undefined) return undefined;
      if (token === 'crash') throw new Error(`ldap bind failed for cn=admin password=${HS_SECRET}`);
      if (token === 'quoted') throw new McpAuthError('INVALID_TOKEN', 'The "token" is revoked');
      if (token === 'multiline') throw new McpAuthError('INVALID_TOKEN', 'The token is revoked\r\nSet-Cookie: pwned=1');
      if (token === 'good-token') return { subject: 'custom', tenant: 'custom-co', scopes: [], claims: {} };
      throw new McpAuthError('INVALID_TOKEN', 'The access token is invalid');
    },
  };
  beforeAll(async () => {
    app = await startSecApp({ auth: { authenticator } });
  });
  afterAll(() => app?.close());

  it('a good token → the authenticator principal', async () => {
    expect(envelopeOf(await post(app.url, callTool(1, 'whoami'), { Authorization: 'Bearer good-token' })).data).toMatchObject({
      tenant: 'custom-co',
    });
  });

  it('an authenticator that throws an unexpected Error → 401 INVALID_TOKEN without its message', async () => {
    const answer = await post(app.url, rpc(1, 'ping'), { Authorization: 'Bearer crash' });
    expect401(answer, 'INVALID_TOKEN');
    expectNoLeak(answer, [HS_SECRET, 'ldap', 'cn=admin']);
  });

  it('an McpAuthError message with quotes keeps the challenge a parseable quoted-string', async () => {
    const answer = await post(app.url, rpc(1, 'ping'), { Authorization: 'Bearer quoted' });
    expect401(answer, 'INVALID_TOKEN');
    const challenge = answer.headers.get('www-authenticate')!;
    // RFC 7235 auth-params: token=token / token=quoted-string; every `"` inside a quoted-string must be escaped.
    expect(challenge).toMatch(/^Bearer realm="mcp"(, [a-z_]+="(?:[^"\\]|\\.)*")*$/);
  });

  it('an McpAuthError message with CR/LF cannot inject headers and still answers 401', async () => {
    const answer = await post(app.url, rpc(1, 'ping'), { Authorization: 'Bearer multiline' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.json?.error?.data?.error?.code).toBe('INVALID_TOKEN');
  });
});
