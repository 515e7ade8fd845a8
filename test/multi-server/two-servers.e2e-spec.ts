import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PassThrough } from 'node:stream';
import { Injectable, Module, type DynamicModule, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpConfigurationError, McpModule, McpTool, serveMcpOverStdio, type McpModuleForRootOptions } from '@nest-mcp/core';
import { Registry } from 'prom-client';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { bootError } from '../kit/boot-mcp.js';
import { initApp, listen, type RunningApp } from '../kit/apps.js';
import { initializeRequest, openSession, post, rpc, sessionHeaders, toolNames } from '../kit/http.js';
import { scrape } from '../kit/prometheus.js';

const PUBLIC_KEY = 'public-key-0123456789';
const ADMIN_KEY = 'admin-key-0123456789';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

@Injectable()
class PublicTools {
  @McpTool({ description: 'Says hello' })
  hello() {
    return 'hello';
  }
}
@Module({ providers: [PublicTools] })
class PublicModule {}

@Injectable()
class AdminTools {
  @McpTool({ description: 'Purges everything' })
  purge() {
    return { purged: true };
  }
}
@Module({ providers: [AdminTools] })
class AdminModule {}

/** A module no app below imports. */
@Module({})
class AbsentModule {}

const publicServer = (extra: Partial<McpModuleForRootOptions> = {}): DynamicModule =>
  McpModule.forRoot({
    name: 'public',
    version: '1.0.0',
    path: '/public',
    include: [PublicModule],
    auth: { apiKeys: [{ key: PUBLIC_KEY, tenant: 'acme' }] },
    ...extra,
  });
const adminServer = (extra: Partial<McpModuleForRootOptions> = {}): DynamicModule =>
  McpModule.forRoot({
    name: 'admin',
    version: '1.0.0',
    path: '/admin',
    ssePath: false,
    wellKnownRoot: false,
    include: [AdminModule],
    auth: { apiKeys: [{ key: ADMIN_KEY, tenant: 'acme' }] },
    ...extra,
  });

/** An upstream on per-user authorization (never reached: the boot fails first). */
const perUserUpstream = (name: string) => ({
  name,
  url: 'http://127.0.0.1:1/mcp',
  auth: {
    authorizationCode: {
      issuer: 'http://127.0.0.1:1',
      clientId: 'gateway',
      clientSecret: 'gateway-secret',
      publicUrl: 'http://127.0.0.1:1',
      encryptionKey: 'k'.repeat(32),
      confirmUser: 'same-subject' as const,
    },
  },
});

async function sdkClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'two-servers', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(key) } }));
  return client;
}

describe('two MCP servers in one app (include)', () => {
  let app: RunningApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await listen([PublicModule, AdminModule, publicServer(), adminServer()]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  it('each lists and calls only the tools of the modules it includes (official SDK client)', async () => {
    const onPublic = await sdkClient(`${app.base}/public`, PUBLIC_KEY);
    const onAdmin = await sdkClient(`${app.base}/admin`, ADMIN_KEY);
    clients.push(onPublic, onAdmin);
    expect((await onPublic.listTools()).tools.map((tool) => tool.name)).toEqual(['hello']);
    expect((await onAdmin.listTools()).tools.map((tool) => tool.name)).toEqual(['purge']);
    expect(onPublic.getServerVersion()?.name).toBe('public');
    expect(onAdmin.getServerVersion()?.name).toBe('admin');
    expect((await onAdmin.callTool({ name: 'purge', arguments: {} })).isError).toBeFalsy();
    const foreign = await onPublic.callTool({ name: 'purge', arguments: {} }).catch((error: Error) => error);
    expect(foreign instanceof Error ? foreign.message : JSON.stringify(foreign)).toMatch(/purge/);
  });

  it("a session of one server is unknown (404) on the other, even with the other's credentials", async () => {
    const { sessionId } = await openSession(`${app.base}/public`, { headers: bearer(PUBLIC_KEY) });
    const own = await post(`${app.base}/public`, rpc(2, 'tools/list'), { ...bearer(PUBLIC_KEY), ...sessionHeaders(sessionId) });
    expect(toolNames(own)).toEqual(['hello']);
    const other = await post(`${app.base}/admin`, rpc(2, 'tools/list'), { ...bearer(ADMIN_KEY), ...sessionHeaders(sessionId) });
    expect(other.status).toBe(404);
  });

  it('each server has its own credentials', async () => {
    expect((await post(`${app.base}/admin`, rpc(1, 'tools/list'), bearer(PUBLIC_KEY))).status).toBe(401);
    expect((await post(`${app.base}/public`, rpc(1, 'tools/list'), bearer(ADMIN_KEY))).status).toBe(401);
    expect(toolNames(await post(`${app.base}/admin`, rpc(1, 'tools/list'), bearer(ADMIN_KEY)))).toEqual(['purge']);
  });

  it('the host-level documents are those of the server that keeps wellKnownRoot; each serves its own card', async () => {
    const remoteOf = async (path: string) =>
      ((await (await fetch(`${app.base}${path}`)).json()) as { remotes: Array<{ url: string }> }).remotes[0].url;
    expect(await remoteOf('/.well-known/mcp/server-card.json')).toBe(`${app.base}/public`);
    expect(await remoteOf('/public/server-card')).toBe(`${app.base}/public`);
    expect(await remoteOf('/admin/server-card')).toBe(`${app.base}/admin`);
  });
});

describe('without include', () => {
  it('both servers serve every provider of the app, as a single server does', async () => {
    const app = await listen([PublicModule, AdminModule, publicServer({ include: undefined }), adminServer({ include: undefined })]);
    try {
      for (const [path, key] of [
        ['/public', PUBLIC_KEY],
        ['/admin', ADMIN_KEY],
      ])
        expect(toolNames(await post(`${app.base}${path}`, rpc(1, 'tools/list'), bearer(key))).sort()).toEqual(['hello', 'purge']);
    } finally {
      await app.close();
    }
  });
});

describe('boot errors', () => {
  const failure = async (imports: (DynamicModule | Type)[]): Promise<Error> => bootError(() => initApp(imports));

  it.each<[string, Partial<McpModuleForRootOptions>, Partial<McpModuleForRootOptions>, RegExp]>([
    ['the MCP path', {}, { path: '/public' }, /"public" at \/public maps \/public \(its path\) and "admin" at \/public maps \/public/],
    [
      'the 2024-11-05 stream path',
      {},
      { ssePath: '/sse', messagesPath: '/admin/messages' },
      /maps \/sse \(its ssePath\).*maps \/sse \(its ssePath\)/,
    ],
    ['the 2024-11-05 message path', {}, { ssePath: '/admin/sse' }, /maps \/messages \(its messagesPath\)/],
    [
      'the host-level well-known documents',
      {},
      { wellKnownRoot: true },
      /maps \/\.well-known\/oauth-protected-resource \(its wellKnownRoot\).*set wellKnownRoot: false on every server but one/,
    ],
    [
      'the explorer page',
      { explorer: { enabled: true, path: '/tools' } },
      { explorer: { enabled: true, path: '/tools' } },
      /maps \/tools \(its explorer\.path\)/,
    ],
    [
      'the metrics endpoint',
      { observability: { metrics: { path: '/metrics', registry: new Registry() } } },
      { observability: { metrics: { path: '/metrics', registry: new Registry() } } },
      /maps \/metrics \(its observability\.metrics\.path\).*set observability\.metrics\.path on one server only/,
    ],
    [
      'the sign-in routes of per-user upstream authorization (at the host’s root, whatever the upstreams’ names)',
      { sources: { upstreams: [perUserUpstream('notes')] } },
      { sources: { upstreams: [perUserUpstream('drive')] } },
      /maps \/mcp-upstream-auth\/:upstream\/start \(its sources\.upstreams\[\]\.auth\.authorizationCode\).*keep the upstreams with auth\.authorizationCode on one server of the app/,
    ],
    ['a route under the other path (job poll URL)', { path: '/mcp' }, { path: '/mcp/jobs' }, /maps \/mcp\/jobs\/:jobId \(its path\)/],
  ])('two servers on %s fail at boot, naming both', async (_, first, second, message) => {
    const error = await failure([PublicModule, AdminModule, publicServer(first), adminServer(second)]);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toMatch(message);
    expect(error.message).toContain('Two McpModule servers map the same route');
  });

  it('an included module the app does not contain fails at boot, naming it', async () => {
    const error = await failure([PublicModule, publicServer({ include: [PublicModule, AbsentModule] })]);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('"include" of "public" at /public lists AbsentModule');
  });
});

describe('two servers on one Redis', () => {
  let redis: RedisServerHandle;

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());

  it('get a key prefix each by default: a session of one is unknown (404) on the other', async () => {
    const app = await listen([
      PublicModule,
      AdminModule,
      publicServer({ redis: { url: redis.url } }),
      adminServer({ redis: { url: redis.url } }),
    ]);
    try {
      const { sessionId } = await openSession(`${app.base}/public`, { headers: bearer(PUBLIC_KEY) });
      const other = await post(`${app.base}/admin`, rpc(2, 'tools/list'), { ...bearer(ADMIN_KEY), ...sessionHeaders(sessionId) });
      expect(other.status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('with one keyPrefix (whatever the database) fail at boot, naming both', async () => {
    const error = await bootError(() =>
      initApp([
        PublicModule,
        AdminModule,
        publicServer({ redis: { url: `${redis.url}/1`, keyPrefix: 'shared:' } }),
        adminServer({ redis: { url: `${redis.url}/2`, keyPrefix: 'shared:' } }),
      ]),
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toMatch(/"public" at \/public and "admin" at \/admin both use redis\.keyPrefix "shared:"/);
    expect(error.message).not.toContain('redis://');
  });
});

describe('two servers writing to one Prometheus registry', () => {
  it('register once, and each writes its own series under its server label', async () => {
    const registry = new Registry();
    const app = await listen([
      PublicModule,
      AdminModule,
      publicServer({ observability: { metrics: { path: '/metrics', registry } } }),
      adminServer({ observability: { metrics: { registry } } }),
    ]);
    try {
      await post(`${app.base}/public`, rpc(1, 'tools/call', { name: 'hello', arguments: {} }), bearer(PUBLIC_KEY));
      await post(`${app.base}/admin`, rpc(1, 'tools/call', { name: 'purge', arguments: {} }), bearer(ADMIN_KEY));
      await post(`${app.base}/admin`, rpc(2, 'tools/call', { name: 'purge', arguments: {} }), bearer(ADMIN_KEY));
      const { samples } = await scrape(`${app.base}/metrics`);
      const calls = samples.filter((sample) => sample.name === 'mcp_tool_calls_total');
      expect(calls.map(({ labels, value }) => [labels.server, labels.tool, value]).sort()).toEqual([
        ['admin', 'purge', 2],
        ['public', 'hello', 1],
      ]);
      const sessions = samples.filter((sample) => sample.name === 'mcp_sessions_active').map(({ labels }) => labels.server);
      expect(sessions.sort()).toEqual(['admin', 'public']);
    } finally {
      await app.close();
    }
    // Both servers gave their metrics back: the registry is empty for the next app.
    expect(await registry.getMetricsAsJSON()).toEqual([]);
  });
});

describe('stdio in an app with two servers', () => {
  /** Serves `requests` over stdio (an in-memory stdin) and returns the answers. */
  async function overStdio(server: string | undefined, credentials: string, requests: unknown[]): Promise<any[]> {
    const moduleRef = await Test.createTestingModule({ imports: [PublicModule, AdminModule, publicServer(), adminServer()] }).compile();
    const app = await moduleRef.init();
    const input = new PassThrough();
    const lines: string[] = [];
    const served = serveMcpOverStdio(app, { server, credentials, input, write: (line) => void lines.push(line) });
    for (const request of requests) input.write(`${JSON.stringify(request)}\n`);
    input.end();
    await served;
    return lines.map((line) => JSON.parse(line));
  }

  it("serves the server it names, with that server's credentials", async () => {
    const answers = await overStdio('admin', ADMIN_KEY, [initializeRequest(1), rpc(2, 'tools/list')]);
    expect(answers[0].result.serverInfo.name).toBe('admin');
    expect(answers[1].result.tools.map((tool: { name: string }) => tool.name)).toEqual(['purge']);
  });

  it('without a name it refuses to guess, naming the servers', async () => {
    const error = await bootError(() => overStdio(undefined, PUBLIC_KEY, []));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain(
      'this app has 2 MCP servers (public, admin); name the one to serve: serveMcpOverStdio(app, { server: "public" })',
    );
  });
});
