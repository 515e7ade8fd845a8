import { randomBytes } from 'node:crypto';
import { McpConfigurationError } from '@nest-mcp/core';
import { decodeProtectedHeader } from 'jose';
import { startSecApp } from '../security/fixtures/sec-app.js';
import { INTROSPECTION_CLIENT, MACHINE_CLIENT, OPAQUE_MACHINE_CLIENT, TestAuthorizationServer } from '../kit/authorization-server.js';
import { initApp, listen, type RunningApp } from '../kit/apps.js';
import { HS_SECRET, signToken } from '../security/fixtures/tokens.js';
import { callTool, envelopeOf, expectNoLeak, type HttpAnswer, post, rpc, send } from '../kit/http.js';
import { SecFixtureModule } from '../security/fixtures/sec-app.js';
import { freePort } from '../kit/redis-server.harness.js';

/**
 * The server as an OAuth 2.1 resource server of a real authorization server (oidc-provider on loopback): metadata
 * discovered at boot, JWT access tokens checked against its JWKS (key rotation included), `aud` bound to this
 * resource (RFC 8707), opaque tokens through introspection (RFC 7662), revocation, and an introspection outage.
 */

const RESOURCE = 'https://mcp.example.com/mcp';
const OTHER_RESOURCE = 'https://other.example.com/mcp';
const METADATA_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
const SCOPES = ['sec:read', 'sec:write'];

let as: TestAuthorizationServer;
beforeAll(async () => {
  as = await TestAuthorizationServer.start({ scopes: SCOPES, tenantOf: (who) => (who === MACHINE_CLIENT.id ? 'acme' : undefined) });
});
afterAll(() => as?.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const whoami = (app: RunningApp, token: string) => post(app.url, callTool(1, 'whoami'), bearer(token));

function expectInvalidToken(answer: HttpAnswer): void {
  expect(answer.status).toBe(401);
  expect(answer.json.error.data.error.code).toBe('INVALID_TOKEN');
  const challenge = answer.headers.get('www-authenticate') ?? '';
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
}

describe('auth.oauth with JWT access tokens (client credentials, resource indicators)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    // jwksCooldownMs 0: the rotation test fetches the new key at once (the default waits 30 s between downloads).
    app = await startSecApp({ auth: { oauth: { issuer: as.issuer, resource: RESOURCE, jwksCooldownMs: 0 } } });
  });
  afterAll(() => app?.close());

  it('serves RFC 9728 metadata naming the issuer, with the tools’ scopes', async () => {
    const answer = await send(`${app.base}/.well-known/oauth-protected-resource/mcp`, { method: 'GET' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      resource: RESOURCE,
      authorization_servers: [as.issuer],
      scopes_supported: ['sec:read', 'sec:write'],
      bearer_methods_supported: ['header'],
    });
  });

  it('no token → 401 pointing at the metadata, without an error code', async () => {
    const answer = await post(app.url, rpc(1, 'ping'));
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(challenge).not.toContain('error=');
    // Only OAuth is configured: the hint names the bearer token, not an X-API-Key this server would refuse.
    expect((answer.json as { error: { message: string } }).error.message).toBe(
      'Authentication required: send Authorization: Bearer <token>',
    );
  });

  it('a JWT for this resource works: subject, tenant claim and scopes reach the tool', async () => {
    const { access_token } = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect(access_token.split('.')).toHaveLength(3);
    const answer = await whoami(app, access_token);
    expect(answer.status).toBe(200);
    expect(envelopeOf(answer)).toMatchObject({
      status: 'success',
      data: { tenant: 'acme', subject: MACHINE_CLIENT.id, scopes: ['sec:read'] },
    });
    const scoped = await post(app.url, callTool(2, 'read_thing'), bearer(access_token));
    expect(envelopeOf(scoped)).toMatchObject({ status: 'success', data: { read: true } });
  });

  it('a JWT for another resource → 401 invalid_token', async () => {
    const { access_token } = await as.clientCredentials(MACHINE_CLIENT, OTHER_RESOURCE, 'sec:read');
    const answer = await whoami(app, access_token);
    expectInvalidToken(answer);
    expectNoLeak(answer, [access_token]);
  });

  it('a key rotation needs no restart: tokens of the new key work, and of the old one still', async () => {
    const before = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect((await whoami(app, before.access_token)).status).toBe(200);
    const kid = await as.rotateKeys();
    const after = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect(decodeProtectedHeader(after.access_token).kid).toBe(kid);
    expect(decodeProtectedHeader(before.access_token).kid).not.toBe(kid);
    expect(envelopeOf(await whoami(app, after.access_token))).toMatchObject({ status: 'success', data: { tenant: 'acme' } });
    expect((await whoami(app, before.access_token)).status).toBe(200);
  });

  it('an opaque token without introspection configured → 401 invalid_token', async () => {
    const { access_token } = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read');
    expectInvalidToken(await whoami(app, access_token));
  });
});

describe('auth.oauth.introspection with opaque access tokens', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        oauth: {
          issuer: as.issuer,
          resource: RESOURCE,
          // cacheMaxMs 0: every request introspects, so a revocation shows at once.
          introspection: { clientId: INTROSPECTION_CLIENT.id, clientSecret: INTROSPECTION_CLIENT.secret, cacheMaxMs: 0 },
        },
      },
    });
  });
  afterAll(() => app?.close());
  afterEach(() => as.setIntrospectionDown(false));

  it('an opaque token for this resource works; the tenant falls back to the subject (the client)', async () => {
    const { access_token } = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read sec:write');
    expect(access_token).not.toContain('.');
    const answer = await whoami(app, access_token);
    expect(envelopeOf(answer)).toMatchObject({
      status: 'success',
      data: { tenant: OPAQUE_MACHINE_CLIENT.id, subject: OPAQUE_MACHINE_CLIENT.id, scopes: ['sec:read', 'sec:write'] },
    });
  });

  it('a revoked token is refused: 401 invalid_token', async () => {
    const { access_token } = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect((await whoami(app, access_token)).status).toBe(200);
    await as.revoke(OPAQUE_MACHINE_CLIENT, access_token);
    expectInvalidToken(await whoami(app, access_token));
  });

  it('an opaque token for another resource → 401 invalid_token', async () => {
    const { access_token } = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, OTHER_RESOURCE, 'sec:read');
    expectInvalidToken(await whoami(app, access_token));
  });

  it('an unknown token → 401 invalid_token', async () => {
    expectInvalidToken(await whoami(app, 'not-a-token-this-server-ever-issued'));
  });

  it('introspection down → 503 with Retry-After, not 500 and not 401', async () => {
    const { access_token } = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read');
    as.setIntrospectionDown(true);
    const answer = await whoami(app, access_token);
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answer.json.error.data.error).toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    expectNoLeak(answer, [access_token, as.issuer, '127.0.0.1']);
    as.setIntrospectionDown(false);
    expect((await whoami(app, access_token)).status).toBe(200);
  });

  it('JWT access tokens still work beside introspection', async () => {
    const { access_token } = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect((await whoami(app, access_token)).status).toBe(200);
  });
});

describe('auth.oauth.introspection cache', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        oauth: {
          issuer: as.issuer,
          resource: RESOURCE,
          introspection: { clientId: INTROSPECTION_CLIENT.id, clientSecret: INTROSPECTION_CLIENT.secret, cacheMaxMs: 60_000 },
        },
      },
    });
  });
  afterAll(() => app?.close());
  afterEach(() => as.setIntrospectionDown(false));

  it('a token seen once is served from the cache while introspection is down; an unseen one is a 503', async () => {
    const seen = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read');
    const unseen = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect((await whoami(app, seen.access_token)).status).toBe(200);
    as.setIntrospectionDown(true);
    expect((await whoami(app, seen.access_token)).status).toBe(200);
    expect((await whoami(app, unseen.access_token)).status).toBe(503);
  });
});

describe('auth.oauth.introspection against a flood of unknown tokens (behind a trusted proxy)', () => {
  const PER_MINUTE = 5;
  const CONCURRENT = 2;
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      http: { trustProxy: true },
      auth: {
        oauth: {
          issuer: as.issuer,
          resource: RESOURCE,
          introspection: {
            clientId: INTROSPECTION_CLIENT.id,
            clientSecret: INTROSPECTION_CLIENT.secret,
            maxRequestsPerMinute: PER_MINUTE,
            maxConcurrent: CONCURRENT,
          },
        },
      },
    });
  });
  afterAll(() => app?.close());
  afterEach(() => as.setIntrospectionDelay(0));

  const from = (address: string, token: string) => post(app.url, callTool(1, 'whoami'), { ...bearer(token), 'X-Forwarded-For': address });
  const unknown = () => `unknown-${randomBytes(16).toString('hex')}`;

  it('a refused token is remembered briefly: asking again costs no introspection', async () => {
    const token = unknown();
    const before = as.introspections;
    expectInvalidToken(await from('198.51.100.10', token));
    expectInvalidToken(await from('198.51.100.10', token));
    expect(as.introspections).toBe(before + 1);
  });

  it('one address is bounded per minute (429, Retry-After, the envelope); another address is still served', async () => {
    const before = as.introspections;
    for (let i = 0; i < PER_MINUTE; i++) expectInvalidToken(await from('198.51.100.20', unknown()));
    const refused = await from('198.51.100.20', unknown());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json.error.data.error).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    expect(as.introspections).toBe(before + PER_MINUTE);
    const { access_token } = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect((await from('198.51.100.21', access_token)).status).toBe(200);
  });

  it('one address has at most maxConcurrent introspections in flight; the rest are 503 with Retry-After', async () => {
    as.setIntrospectionDelay(300);
    const before = as.introspections;
    const answers = await Promise.all(Array.from({ length: CONCURRENT + 2 }, () => from('198.51.100.30', unknown())));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(CONCURRENT).fill(401), 503, 503]);
    const busy = answers.find((answer) => answer.status === 503)!;
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(busy.json.error.data.error).toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    expect(as.introspections).toBe(before + CONCURRENT);
  });
});

describe('auth.oauth beside auth.jwt and auth.apiKeys', () => {
  const API_KEY = 'oauth-suite-api-key-0123456789';
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        jwt: { secret: HS_SECRET },
        oauth: {
          issuer: as.issuer,
          resource: RESOURCE,
          introspection: { clientId: INTROSPECTION_CLIENT.id, clientSecret: INTROSPECTION_CLIENT.secret },
        },
        apiKeys: [{ key: API_KEY, tenant: 'keyed' }],
      },
    });
  });
  afterAll(() => app?.close());

  it('each credential goes to its verifier: HS256 JWT, the authorization server’s JWT, opaque token, API key', async () => {
    const hs = await signToken({ sub: 'hs-user', tenant_id: 'hs-tenant' }, HS_SECRET);
    expect(envelopeOf(await whoami(app, hs))).toMatchObject({ data: { tenant: 'hs-tenant' } });
    const { access_token: jwt } = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect(envelopeOf(await whoami(app, jwt))).toMatchObject({ data: { tenant: 'acme' } });
    const { access_token: opaque } = await as.clientCredentials(OPAQUE_MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect(envelopeOf(await whoami(app, opaque))).toMatchObject({ data: { tenant: OPAQUE_MACHINE_CLIENT.id } });
    expect(envelopeOf(await whoami(app, API_KEY))).toMatchObject({ data: { tenant: 'keyed' } });
  });

  it('an API key never reaches the introspection endpoint, even while it is down', async () => {
    as.setIntrospectionDown(true);
    const before = as.introspections;
    try {
      expect((await whoami(app, API_KEY)).status).toBe(200);
      expect(as.introspections).toBe(before);
    } finally {
      as.setIntrospectionDown(false);
    }
  });

  it('an HS256 token claiming the authorization server as issuer is refused (asymmetric keys only there)', async () => {
    const forged = await signToken({ sub: 'mallory', tenant_id: 'acme' }, HS_SECRET, { issuer: as.issuer, audience: RESOURCE });
    expectInvalidToken(await whoami(app, forged));
  });
});

describe('auth.oauth JWKS refresh is rate-limited (jwksCooldownMs)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({ auth: { oauth: { issuer: as.issuer, resource: RESOURCE, jwksCooldownMs: 60_000 } } });
  });
  afterAll(() => app?.close());

  it('a token of a key unseen within the cooldown is refused, without another key-set download', async () => {
    const before = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect((await whoami(app, before.access_token)).status).toBe(200);
    await as.rotateKeys();
    const after = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expectInvalidToken(await whoami(app, after.access_token));
  });
});

describe('auth.oauth.tenantClaim', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({ auth: { oauth: { issuer: as.issuer, resource: RESOURCE, tenantClaim: 'client_id' } } });
  });
  afterAll(() => app?.close());

  it('names the claim the tenant is read from', async () => {
    const { access_token } = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect(envelopeOf(await whoami(app, access_token))).toMatchObject({ data: { tenant: MACHINE_CLIENT.id } });
  });
});

describe('auth.oauth under a global prefix', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await listen([SecFixtureModule.with({ auth: { oauth: { issuer: as.issuer, resource: RESOURCE } } })], { globalPrefix: 'api' });
  });
  afterAll(() => app?.close());

  it('the audience is the resource as served (https://mcp.example.com/api/mcp), as the metadata says', async () => {
    const metadata = await send(`${app.base}/api/.well-known/oauth-protected-resource/mcp`, { method: 'GET' });
    const served = 'https://mcp.example.com/api/mcp';
    expect(metadata.json).toMatchObject({ resource: served });
    const url = `${app.base}/api/mcp`;
    const good = await as.clientCredentials(MACHINE_CLIENT, served, 'sec:read');
    expect((await post(url, callTool(1, 'whoami'), bearer(good.access_token))).status).toBe(200);
    const bare = await as.clientCredentials(MACHINE_CLIENT, RESOURCE, 'sec:read');
    expect((await post(url, callTool(1, 'whoami'), bearer(bare.access_token))).status).toBe(401);
  });
});

describe('auth.oauth at boot', () => {
  it('an issuer that cannot be reached → MCP_ERR_OAUTH_DISCOVERY_FAILED', async () => {
    const issuer = `http://127.0.0.1:${await freePort()}`;
    const error = await initApp([SecFixtureModule.with({ auth: { oauth: { issuer, resource: RESOURCE, timeoutMs: 1_000 } } })]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as McpConfigurationError).code).toBe('MCP_ERR_OAUTH_DISCOVERY_FAILED');
  });

  it('an issuer that differs from the metadata’s → MCP_ERR_OAUTH_METADATA_UNUSABLE', async () => {
    const error = await initApp([SecFixtureModule.with({ auth: { oauth: { issuer: `${as.issuer}/`, resource: RESOURCE } } })]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as McpConfigurationError).code).toBe('MCP_ERR_OAUTH_METADATA_UNUSABLE');
  });

  it('no resource (neither auth.oauth.resource nor auth.resourceMetadata) → an option error', async () => {
    const error = await initApp([SecFixtureModule.with({ auth: { oauth: { issuer: as.issuer } } })]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toContain('"auth.oauth.resource"');
  });
});
