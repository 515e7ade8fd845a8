import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { httpAdapterName, SpawnedWeatherServer, startWeatherApp, type RunningApp } from '../kit/apps.js';
import { ensureBuilt, WEATHER_MAIN } from '../kit/build.js';
import { callTool, envelopeOf, post, rpc, toolNames } from '../kit/http.js';
import { StdioServerProcess } from '../kit/stdio.js';

/**
 * The sample's second server: `/admin/mcp` (AdminModule, `include: [AdminModule]`) serves purge_alerts and none of
 * the weather tools, `/mcp` serves the weather tools and not purge_alerts; both take the same credentials.
 */
const ADMIN_KEY = 'admin-key-0123456789';
const PLAIN_KEY = 'plain-key-0123456789';
const OTHER_KEY = 'other-key-0123456789';
const MCP_API_KEYS = [
  `${ADMIN_KEY}|acme|weather:read weather:write weather:admin`,
  `${PLAIN_KEY}|acme`,
  `${OTHER_KEY}|globex|weather:read weather:write weather:admin`,
].join(',');
const key = (value: string) => ({ 'X-API-Key': value });

let idempotency = 0;
const alertArgs = () => ({
  city: 'Paris',
  threshold_celsius: 30,
  priority: 'low',
  idempotency_key: `admin-e2e-${++idempotency}-0123456789`,
});

describe('the weather sample: /mcp and /admin/mcp in one app', () => {
  let app: RunningApp;
  let admin: Client;

  beforeAll(async () => {
    app = await startWeatherApp({ env: { MCP_API_KEYS } });
    admin = new Client({ name: 'weather-admin-e2e', version: '1.0.0' });
    await admin.connect(new StreamableHTTPClientTransport(new URL(`${app.base}/admin/mcp`), { requestInit: { headers: key(ADMIN_KEY) } }));
  });
  afterAll(async () => {
    await admin?.close();
    await app?.close();
  });

  it('/admin/mcp lists purge_alerts and none of the weather tools; /mcp does not list purge_alerts', async () => {
    expect((await admin.listTools()).tools.map((tool) => tool.name)).toEqual(['purge_alerts']);
    expect(admin.getServerVersion()?.name).toBe('weather-admin');
    const main = toolNames(await post(app.url, rpc(1, 'tools/list'), key(ADMIN_KEY)));
    expect(main).toEqual(expect.arrayContaining(['get_weather', 'create_weather_alert', 'list_weather_alerts']));
    expect(main).not.toContain('purge_alerts');
    const unknown = await post(app.url, callTool(2, 'purge_alerts'), key(ADMIN_KEY));
    expect(unknown.json.error).toEqual({ code: -32602, message: 'Unknown tool: purge_alerts' });
  });

  it("purge_alerts with weather:admin deletes the caller's tenant's alerts and answers how many", async () => {
    for (let index = 0; index < 3; index++) await post(app.url, callTool(index, 'create_weather_alert', alertArgs()), key(PLAIN_KEY));
    await post(app.url, callTool(9, 'create_weather_alert', alertArgs()), key(OTHER_KEY));
    const result = await admin.callTool({ name: 'purge_alerts', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { data: { deleted: number } }).data.deleted).toBe(3);
    expect(envelopeOf(await post(app.url, callTool(10, 'list_weather_alerts'), key(PLAIN_KEY)))).toEqual({
      status: 'success',
      data: { alerts: [] },
    });
    // Another tenant's alerts are untouched.
    expect(envelopeOf(await post(app.url, callTool(11, 'list_weather_alerts'), key(OTHER_KEY))).data.alerts).toHaveLength(1);
    expect((await admin.callTool({ name: 'purge_alerts', arguments: {} })).structuredContent).toMatchObject({ data: { deleted: 0 } });
  });

  it('purge_alerts without weather:admin: HTTP 403 with the insufficient_scope challenge and a FORBIDDEN envelope', async () => {
    await post(app.url, callTool(1, 'create_weather_alert', alertArgs()), key(PLAIN_KEY));
    const refused = await post(`${app.base}/admin/mcp`, callTool(2, 'purge_alerts'), key(PLAIN_KEY));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="weather:admin"/);
    expect(refused.json.error.data).toEqual({
      status: 'error',
      error: { code: 'FORBIDDEN', retryable: false, message: expect.stringMatching(/weather:admin/) },
    });
    expect(envelopeOf(await post(app.url, callTool(3, 'list_weather_alerts'), key(PLAIN_KEY))).data.alerts).toHaveLength(1);
  });

  it('takes the same credentials as /mcp: none is 401', async () => {
    expect((await post(`${app.base}/admin/mcp`, rpc(1, 'tools/list'))).status).toBe(401);
  });
});

describe('the built weather server (main.ts): HTTP_ADAPTER, GLOBAL_PREFIX, the startup line', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  // The run's adapter (jest's "express" and "fastify" projects), which SpawnedWeatherServer passes as HTTP_ADAPTER.
  it(`HTTP_ADAPTER=${httpAdapterName()}: the startup line names the adapter and both servers answer`, async () => {
    const adapter = httpAdapterName();
    const server = await SpawnedWeatherServer.start({ MCP_API_KEYS });
    try {
      expect(server.stderr).toContain(`weather-server: MCP endpoint on http://127.0.0.1:${server.port}/mcp (${adapter})\n`);
      expect(toolNames(await post(`${server.baseUrl}/admin/mcp`, rpc(1, 'tools/list'), key(ADMIN_KEY)))).toEqual(['purge_alerts']);
      expect(toolNames(await post(server.url, rpc(1, 'tools/list'), key(ADMIN_KEY)))).toContain('get_weather');
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it('GLOBAL_PREFIX=api: the endpoints move under /api and the startup line says so', async () => {
    const server = await SpawnedWeatherServer.start({ GLOBAL_PREFIX: 'api', MCP_API_KEYS });
    try {
      expect(server.stderr).toContain(`MCP endpoint on http://127.0.0.1:${server.port}/api/mcp (${httpAdapterName()})\n`);
      expect(toolNames(await post(`${server.baseUrl}/api/mcp`, rpc(1, 'tools/list'), key(ADMIN_KEY)))).toContain('get_weather');
      expect(toolNames(await post(`${server.baseUrl}/api/admin/mcp`, rpc(1, 'tools/list'), key(ADMIN_KEY)))).toEqual(['purge_alerts']);
      expect((await post(server.url, rpc(1, 'tools/list'), key(ADMIN_KEY))).status).toBe(404);
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it('PORT=0: the startup line gives the port the system picked', async () => {
    const child = new StdioServerProcess(WEATHER_MAIN, [], { REDIS_URL: '', PORT: '0', HOST: '127.0.0.1' });
    try {
      await child.waitForStderr(/MCP endpoint on/);
      const port = Number(/http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(child.stderr)?.[1]);
      expect(port).toBeGreaterThan(0);
      expect((await post(`http://127.0.0.1:${port}/mcp`, rpc(1, 'ping'))).status).toBe(200);
    } finally {
      child.signal('SIGTERM');
      await child.waitForExit();
    }
  });

  it('an unknown HTTP_ADAPTER fails with one stderr line and exit code 1', async () => {
    const child = new StdioServerProcess(WEATHER_MAIN, [], { REDIS_URL: '', HTTP_ADAPTER: 'koa', PORT: '0', HOST: '127.0.0.1' });
    const exit = await child.waitForExit();
    expect(exit.code).toBe(1);
    expect(child.stderr).toBe('weather-server: HTTP_ADAPTER=koa is not an HTTP adapter; use express or fastify\n');
  });
});
