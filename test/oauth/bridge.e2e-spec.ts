import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationFull, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpModule } from '@nest-mcp/core';
import { SecFixtureModule } from '../security/fixtures/sec-app.js';
import { authorizeOverHttp, TestAuthorizationServer } from '../kit/authorization-server.js';
import { listen, type RunningApp } from '../kit/apps.js';
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

let upstream: TestAuthorizationServer;
let redis: RedisServerHandle;
let app: RunningApp;
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
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  redis = await startRedisServer();
  upstream = await TestAuthorizationServer.start({
    scopes: SCOPES,
    clients: [
      {
        client_id: UPSTREAM_CLIENT.id,
        client_secret: UPSTREAM_CLIENT.secret,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${base}/oauth/callback`],
      },
    ],
  });
  app = await listen(
    [
      SecFixtureModule.with({
        redis: { url: redis.url },
        auth: {
          bridge: {
            resource: `${base}/mcp`,
            upstream: { issuer: upstream.issuer, clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret, scopes: ['openid'] },
            signingSecret: 'bridge-signing-secret-0123456789abcdef',
            allowHttpLoopbackClientIds: true,
          },
        },
      }),
    ],
    { port },
  );
});
afterAll(async () => {
  await app?.close();
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

  constructor(private readonly account: string) {}

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
    expect(url.origin).toBe(app.base);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    this.callbackUrl = await authorizeOverHttp(url.href, REDIRECT_URI, this.account);
  }
}

/** Signs `account` in through the SDK client; the provider holds the bridge's tokens then. */
async function signIn(account: string): Promise<BridgeUserProvider> {
  const provider = new BridgeUserProvider(account);
  const first = new StreamableHTTPClientTransport(new URL(app.url), { authProvider: provider });
  await expect(new Client({ name: 'bridge-e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const code = provider.callbackUrl?.searchParams.get('code');
  expect(provider.callbackUrl?.searchParams.get('iss')).toBe(app.base);
  await first.finishAuth(code!);
  await first.close();
  return provider;
}

async function whoami(provider: OAuthClientProvider): Promise<Record<string, unknown>> {
  const client = new Client({ name: 'bridge-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { authProvider: provider }));
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { data: Record<string, unknown> }).data;
  } finally {
    await client.close();
  }
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

async function postForm(path: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${app.base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function register(): Promise<string> {
  const response = await fetch(`${app.base}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** /authorize by hand: the user played through; the code and the verifier that goes with it. */
async function authorizationCode(clientId: string, account: string): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${app.base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'xyz',
    scope: 'sec:read',
  }).toString();
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
    expect((await postForm('/oauth/revoke', { token })).status).toBe(200);
    expect(await mcpStatus(token)).toBe(401);
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
    const url = new URL(`${app.base}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:53683/evil',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('/authorize refuses a client without PKCE S256 (back to its redirect URI)', async () => {
    const clientId = await register();
    const url = new URL(`${app.base}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
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
    const authorize = async (clientId: string) => {
      const url = new URL(`${app.base}/oauth/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
      }).toString();
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      return response.status;
    };
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
    const url = new URL(`${app.base}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      state: 'st',
    }).toString();
    const callback = await authorizeOverHttp(url.href, REDIRECT_URI, 'ivan', 'deny');
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
