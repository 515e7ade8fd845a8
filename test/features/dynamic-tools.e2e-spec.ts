import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { McpExecutionContext, McpTool, McpToolRegistry } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { listenMcp, startWeatherApp, withEnv, type RunningApp } from '../kit/apps.js';
import { callTool, openSession, post, responseOf, rpc, sessionHeaders, type HttpAnswer } from '../kit/http.js';
import { call2026 } from '../rev-2026-07-28/support/requests.js';
import { todayUtc } from '../../apps/weather-server/src/weather/weather.model.js';
import { airQualityFor } from '../../apps/weather-server/src/air-quality/air-quality.model.js';
import { cityNamed } from '../support/weather-expectations.js';
import { instancesOnOneRedis } from '../scaling/scaling-support.js';

const API_KEYS = [
  { key: 'key-beta-0123456789', tenant: 'beta', scopes: [] },
  { key: 'key-plain-0123456789', tenant: 'plain', scopes: [] },
];
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

@Injectable()
class StaticTools {
  @McpTool({ description: 'Always there' })
  ping() {
    return 'pong';
  }

  @McpTool({ description: 'Only for the beta tenant', visibleTo: (principal) => principal?.tenant === 'beta' })
  betaOnly() {
    return 'beta';
  }
}

/** Refuses the tenant "plain" (returns false); throws on a missing argument, as listing has none. */
@Injectable()
class TenantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return McpExecutionContext.from(context).toolContext.tenant !== 'plain';
  }
}
@Injectable()
class NeedsArgsGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { args } = McpExecutionContext.from(context) as { args: { city?: string } };
    if (args.city === undefined) throw new TypeError('no city');
    return true;
  }
}

@Injectable()
class GuardedTools {
  @UseGuards(TenantGuard)
  @McpTool({ description: 'Guarded by tenant' })
  guarded() {
    return 'ok';
  }

  @UseGuards(NeedsArgsGuard)
  @McpTool({ description: 'Guard reads arguments', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } })
  argsGuarded() {
    return 'ok';
  }
}

const names = (answer: HttpAnswer) => (responseOf(answer).result.tools as { name: string }[]).map((tool) => tool.name);

async function sdkClient(url: string, key?: string): Promise<{ client: Client; changes: number[] }> {
  const client = new Client({ name: 'dynamic-e2e', version: '1.0.0' });
  const changes: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push(Date.now()));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), key ? { requestInit: { headers: bearer(key) } } : undefined));
  return { client, changes };
}

describe('runtime tool registration (SDK client over HTTP)', () => {
  let app: RunningApp;
  afterAll(() => app?.close());

  it('register → list_changed, listed, callable through the pipeline; remove → list_changed and -32602', async () => {
    app = await listenMcp({ name: 'dyn', version: '1.0.0', lists: { listChanged: { tools: true } } }, [StaticTools]);
    const { client, changes } = await sdkClient(app.url);
    // The SDK opens its GET stream after initialize: wait for it before changing the list.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const registry = app.app.get(McpToolRegistry);
    const handle = registry.register({
      name: 'echo_upper',
      description: 'Echoes in upper case',
      inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 5 } }, required: ['text'] },
      handler: (args: { text: string }) => args.text.toUpperCase(),
    });
    await eventually(() => changes.length >= 1, 5_000, 'list_changed #1');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo_upper');
    const ok = await client.callTool({ name: 'echo_upper', arguments: { text: 'abc' } });
    expect(ok.structuredContent).toMatchObject({ status: 'success', data: 'ABC' });
    // The same validation as decorated tools: an isError envelope, not a thrown handler.
    const bad = await client.callTool({ name: 'echo_upper', arguments: { text: 'too long' } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR' } });

    handle.replace({
      description: 'Echoes in lower case',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: (args: unknown) => (args as { text: string }).text.toLowerCase(),
    });
    await eventually(() => changes.length >= 2, 5_000, 'list_changed #2');
    expect((await client.callTool({ name: 'echo_upper', arguments: { text: 'ABC' } })).structuredContent).toMatchObject({ data: 'abc' });

    expect(handle.remove()).toBe(true);
    await eventually(() => changes.length >= 3, 5_000, 'list_changed #3');
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('echo_upper');
    await expect(client.callTool({ name: 'echo_upper', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('runtime registration across instances (Redis)', () => {
  const shared = instancesOnOneRedis({
    count: 2,
    start: (redisUrl) =>
      listenMcp({ name: 'dyn', version: '1.0.0', lists: { listChanged: { tools: true } }, redis: { url: redisUrl } }, [StaticTools]),
  });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));

  it('a tool added on instance A reaches a session on instance B as notifications/tools/list_changed', async () => {
    const { client, changes } = await sdkClient(b.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    a.app.get(McpToolRegistry).register({ name: 'added_on_a', description: 'Added on A', handler: () => 'a' });
    await eventually(() => changes.length >= 1, 5_000, 'list_changed on B');
    await client.close();
  });
});

describe('per-caller visibility (raw HTTP, both eras)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await listenMcp({ name: 'vis', version: '1.0.0', auth: { apiKeys: API_KEYS }, tools: { hideGuarded: true } }, [
      StaticTools,
      GuardedTools,
      TenantGuard,
      NeedsArgsGuard,
    ]);
  });
  afterAll(() => app?.close());

  it('2026-07-28: a hidden tool is absent from tools/list and calling it is -32602, like a missing tool', async () => {
    const beta = await call2026(app.url, 1, 'tools/list', {}, { headers: bearer('key-beta-0123456789') });
    expect(names(beta)).toEqual(expect.arrayContaining(['ping', 'beta_only']));
    const plain = await call2026(app.url, 2, 'tools/list', {}, { headers: bearer('key-plain-0123456789') });
    expect(names(plain)).not.toContain('beta_only');
    expect(plain.json.result.cacheScope).toBe('private');

    const hidden = await call2026(
      app.url,
      3,
      'tools/call',
      { name: 'beta_only', arguments: {} },
      { headers: bearer('key-plain-0123456789') },
    );
    const missing = await call2026(
      app.url,
      4,
      'tools/call',
      { name: 'no_such_tool', arguments: {} },
      { headers: bearer('key-plain-0123456789') },
    );
    expect(hidden.json.error.code).toBe(-32602);
    expect(missing.json.error.code).toBe(-32602);
    expect(hidden.json.error.message).toBe(missing.json.error.message.replace('no_such_tool', 'beta_only'));
    const shown = await call2026(
      app.url,
      5,
      'tools/call',
      { name: 'beta_only', arguments: {} },
      { headers: bearer('key-beta-0123456789') },
    );
    expect(shown.json.result.isError).not.toBe(true);
  });

  it('2025-11-25 session: the same, and hideGuardedTools hides a tool whose guard refuses the caller', async () => {
    const plainSession = await openSession(app.url, { headers: bearer('key-plain-0123456789') });
    const plainHeaders = { ...sessionHeaders(plainSession.sessionId), ...bearer('key-plain-0123456789') };
    const listed = names(await post(app.url, rpc(2, 'tools/list'), plainHeaders));
    expect(listed).not.toContain('beta_only');
    expect(listed).not.toContain('guarded');
    // A guard that fails for want of arguments counts as visible: the call decides.
    expect(listed).toContain('args_guarded');
    expect(responseOf(await post(app.url, callTool(3, 'guarded'), plainHeaders)).error.code).toBe(-32602);
    expect(responseOf(await post(app.url, callTool(4, 'beta_only'), plainHeaders)).error.code).toBe(-32602);

    const betaSession = await openSession(app.url, { headers: bearer('key-beta-0123456789') });
    const betaHeaders = { ...sessionHeaders(betaSession.sessionId), ...bearer('key-beta-0123456789') };
    expect(names(await post(app.url, rpc(2, 'tools/list'), betaHeaders))).toEqual(
      expect.arrayContaining(['ping', 'beta_only', 'guarded', 'args_guarded']),
    );
    expect(responseOf(await post(app.url, callTool(3, 'guarded'), betaHeaders)).result.isError).not.toBe(true);
  });
});

describe('weather server: WEATHER_BETA_TENANTS', () => {
  let weather: RunningApp;
  beforeAll(async () => {
    weather = await withEnv({ WEATHER_BETA_TENANTS: 't1,t2' }, () =>
      startWeatherApp({ env: { MCP_API_KEYS: 'key-t1-0123456789abc|t1,key-t3-0123456789abc|t3' } }),
    );
  });
  afterAll(() => weather?.close());

  it('a beta tenant sees and calls get_air_quality; another tenant neither lists nor can call it', async () => {
    const beta = await sdkClient(weather.url, 'key-t1-0123456789abc');
    expect((await beta.client.listTools()).tools.map((tool) => tool.name)).toContain('get_air_quality');
    const result = await beta.client.callTool({ name: 'get_air_quality', arguments: { city: 'Beijing' } });
    const data = (result.structuredContent as { data: { aqi: number; category: string } }).data;
    expect(Number.isInteger(data.aqi) && data.aqi >= 0 && data.aqi <= 500).toBe(true);
    expect(data).toMatchObject(airQualityFor(cityNamed('Beijing'), todayUtc()));
    await beta.client.close();

    const other = await sdkClient(weather.url, 'key-t3-0123456789abc');
    expect((await other.client.listTools()).tools.map((tool) => tool.name)).not.toContain('get_air_quality');
    await expect(other.client.callTool({ name: 'get_air_quality', arguments: { city: 'Beijing' } })).rejects.toMatchObject({
      code: -32602,
    });
    await other.client.close();
  });
});
