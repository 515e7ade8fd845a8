import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { Registry, register } from 'prom-client';
import { McpArgs, McpConfigurationError, McpTool, McpToolError } from '@nest-mcp/core';
import { bootError } from '../kit/boot-mcp.js';
import { listenMcp, startWeatherApp, type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, openSession, post, rpc, SIMPLE_CLIENT_HEADERS } from '../kit/http.js';
import { openSse } from '../kit/sse.js';
import { samplesOf, scrape, valueOf, type PrometheusSample } from '../kit/prometheus.js';
import { eventually } from '../kit/eventually.js';

class CityDto {
  @IsString()
  city!: string;
}

/** The running `held_job` calls, each ended by calling it. */
const heldJobs: Array<() => void> = [];

@Injectable()
class MeteredTools {
  @McpTool({ name: 'echo_city', description: 'Echoes the city.' })
  echo(@McpArgs() args: CityDto) {
    return { city: args.city };
  }

  @McpTool({ name: 'held_job', description: 'A job that runs until the test lets it end.', job: {} })
  async held(): Promise<string> {
    await new Promise<void>((resolve) => heldJobs.push(resolve));
    return 'done';
  }

  @McpTool({ name: 'always_fails', description: 'Fails with a domain code.' })
  fails(): never {
    throw new McpToolError('UPSTREAM_DOWN', 'the upstream did not answer');
  }
}

const ACME_KEY = 'acme-key-0123456789';
const GLOBEX_KEY = 'globex-key-0123456789';

describe('metrics: the weather server serves GET /metrics (raw HTTP)', () => {
  let weather: RunningApp;

  beforeAll(async () => {
    weather = await startWeatherApp();
  });
  afterAll(async () => {
    await weather?.close();
  });

  it('counts requests, tool calls by status and error code, and observes the duration histogram', async () => {
    const ok = await post(weather.url, callTool(1, 'get_weather', { city: 'Beijing' }), SIMPLE_CLIENT_HEADERS);
    expect(envelopeOf(ok).status).toBe('success');
    await post(weather.url, callTool(2, 'get_weather', { city: 'Beijing' }), SIMPLE_CLIENT_HEADERS);
    const missing = await post(weather.url, callTool(3, 'get_weather', { city: 'Atlantis' }), SIMPLE_CLIENT_HEADERS);
    expect(envelopeOf(missing).error.code).toBe('CITY_NOT_FOUND');
    const invalid = await post(weather.url, callTool(4, 'get_weather', { city: 42 }), SIMPLE_CLIENT_HEADERS);
    expect(envelopeOf(invalid).error.code).toBe('VALIDATION_ERROR');
    const job = await post(weather.url, callTool(5, 'generate_climate_report', { city: 'Stockholm', years: 2 }), SIMPLE_CLIENT_HEADERS);
    expect(envelopeOf(job).status).toBe('pending');
    // Unknown methods are not label values: they count as "other".
    await post(weather.url, rpc(6, 'no/such-method'), SIMPLE_CLIENT_HEADERS);
    await post(weather.url, rpc(7, `random/${Math.random()}`), SIMPLE_CLIENT_HEADERS);

    const metrics = await scrape(`${weather.base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const { samples, text } = metrics;
    const server = { server: 'weather-server' };
    expect(valueOf(samples, 'mcp_tool_calls_total', { ...server, tool: 'get_weather', status: 'success' })).toBe(2);
    expect(valueOf(samples, 'mcp_tool_calls_total', { ...server, tool: 'get_weather', status: 'error' })).toBe(2);
    expect(valueOf(samples, 'mcp_tool_calls_total', { ...server, tool: 'generate_climate_report', status: 'pending' })).toBe(1);
    expect(valueOf(samples, 'mcp_tool_errors_total', { ...server, tool: 'get_weather', code: 'CITY_NOT_FOUND' })).toBe(1);
    expect(valueOf(samples, 'mcp_tool_errors_total', { ...server, tool: 'get_weather', code: 'VALIDATION_ERROR' })).toBe(1);
    // tools/call answered with a result each time (the envelope carries the tool's outcome).
    expect(valueOf(samples, 'mcp_requests_total', { ...server, method: 'tools/call', outcome: 'success' })).toBe(5);
    expect(valueOf(samples, 'mcp_requests_total', { ...server, method: 'other', outcome: 'error' })).toBe(2);
    expect(text).not.toContain('no/such-method');
    expect(text).not.toContain('random/');

    expect(valueOf(samples, 'mcp_tool_duration_seconds_count', { ...server, tool: 'get_weather' })).toBe(4);
    expect(valueOf(samples, 'mcp_tool_duration_seconds_bucket', { ...server, tool: 'get_weather', le: '+Inf' })).toBe(4);
    expect(valueOf(samples, 'mcp_tool_duration_seconds_sum', { ...server, tool: 'get_weather' })).toBeGreaterThan(0);
    expect(samplesOf(samples, 'mcp_tool_duration_seconds_bucket', { tool: 'get_weather' }).length).toBeGreaterThan(5);
    expect(text).toMatch(/^# TYPE mcp_tool_duration_seconds histogram$/m);

    // No tenant label by default (one series per tenant can be very many).
    for (const sample of samplesOf(samples, 'mcp_requests_total').concat(samplesOf(samples, 'mcp_tool_calls_total')))
      expect(sample.labels).not.toHaveProperty('tenant');
  });

  it('reports sessions and streams open on this instance', async () => {
    const jobs = (state: string, samples: PrometheusSample[]) => valueOf(samples, 'mcp_jobs', { server: 'weather-server', state });
    const before = (await scrape(`${weather.base}/metrics`)).samples;
    const sessions = (samples: typeof before) => valueOf(samples, 'mcp_sessions_active', { server: 'weather-server' });
    const streams = (samples: typeof before) => valueOf(samples, 'mcp_streams_active', { server: 'weather-server' });
    const { sessionId } = await openSession(weather.url, { headers: { Authorization: 'Bearer some-key' } });
    const stream = await openSse(weather.url, { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' });
    try {
      expect(stream.status).toBe(200);
      const open = (await scrape(`${weather.base}/metrics`)).samples;
      expect(sessions(open)).toBe(sessions(before)! + 1);
      expect(streams(open)).toBe(streams(before)! + 1);
    } finally {
      stream.close();
    }
    await post(weather.url, rpc(9, 'ping'), { 'Mcp-Session-Id': sessionId });
    await endSession(weather.url, sessionId);
    await eventually(
      async () => {
        const after = (await scrape(`${weather.base}/metrics`)).samples;
        return streams(after) === streams(before) && sessions(after) === sessions(before);
      },
      5_000,
      'the stream and the session to be gone from the gauges',
    );
    await eventually(
      async () => {
        const done = (await scrape(`${weather.base}/metrics`)).samples;
        return jobs('waiting', done) === 0 && jobs('running', done) === 0;
      },
      15_000,
      'the climate report jobs to finish',
    );
  });

  it('is served without the MCP authentication, and only to GET', async () => {
    const secured = await startWeatherApp({ env: { MCP_API_KEYS: ACME_KEY } });
    try {
      expect((await post(secured.url, rpc(1, 'ping'))).status).toBe(401);
      expect((await scrape(`${secured.base}/metrics`)).status).toBe(200);
      expect((await fetch(`${secured.base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await secured.close();
    }
  });
});

/** DELETE ends the session. */
async function endSession(url: string, sessionId: string): Promise<void> {
  const response = await fetch(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' } });
  expect(response.status).toBeLessThan(300);
}

describe('metrics: options', () => {
  let app: RunningApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('metrics.tenantLabel: true adds the tenant to the request and tool series', async () => {
    app = await listenMcp(
      {
        name: 'tenanted',
        version: '1.0.0',
        auth: {
          apiKeys: [
            { key: ACME_KEY, tenant: 'acme' },
            { key: GLOBEX_KEY, tenant: 'globex' },
          ],
        },
        observability: { metrics: { path: '/metrics', registry: new Registry(), tenantLabel: true } },
      },
      [MeteredTools],
    );
    await post(app.url, callTool(1, 'echo_city', { city: 'Oslo' }), { Authorization: `Bearer ${ACME_KEY}` });
    await post(app.url, callTool(2, 'echo_city', { city: 'Oslo' }), { Authorization: `Bearer ${ACME_KEY}` });
    await post(app.url, callTool(3, 'always_fails'), { Authorization: `Bearer ${GLOBEX_KEY}` });
    const { samples } = await scrape(`${app.base}/metrics`);
    const server = { server: 'tenanted' };
    expect(valueOf(samples, 'mcp_tool_calls_total', { ...server, tool: 'echo_city', status: 'success', tenant: 'acme' })).toBe(2);
    expect(valueOf(samples, 'mcp_tool_calls_total', { ...server, tool: 'always_fails', status: 'error', tenant: 'globex' })).toBe(1);
    expect(valueOf(samples, 'mcp_tool_errors_total', { ...server, tool: 'always_fails', code: 'UPSTREAM_DOWN', tenant: 'globex' })).toBe(1);
    expect(valueOf(samples, 'mcp_requests_total', { ...server, method: 'tools/call', outcome: 'success', tenant: 'acme' })).toBe(2);
    expect(valueOf(samples, 'mcp_tool_duration_seconds_count', { ...server, tool: 'echo_city', tenant: 'acme' })).toBe(2);
  });

  it("without a registry: prom-client's global register, freed at shutdown for the next app", async () => {
    app = await listenMcp({ name: 'global_one', version: '1.0.0', observability: { metrics: {} } }, [MeteredTools]);
    await post(app.url, callTool(1, 'echo_city', { city: 'Oslo' }));
    // No path: nothing served, the app exposes the registry itself.
    expect((await fetch(`${app.base}/metrics`)).status).toBe(404);
    expect(await register.getSingleMetricAsString('mcp_tool_calls_total')).toContain(
      'mcp_tool_calls_total{server="global_one",tool="echo_city",status="success"} 1',
    );
    // A second app on the same registry in the same process is refused with the fix.
    const clash = await bootError(() =>
      listenMcp({ name: 'global_two', version: '1.0.0', observability: { metrics: {} } }, [MeteredTools]),
    );
    expect(clash).toBeInstanceOf(McpConfigurationError);
    expect(clash.message).toContain('mcp_requests_total');
    expect(clash.message).toContain('new Registry()');
    await app.close();
    expect(register.getSingleMetric('mcp_requests_total')).toBeUndefined();
    app = await listenMcp({ name: 'global_two', version: '1.0.0', observability: { metrics: {} } }, [MeteredTools]);
    expect(register.getSingleMetric('mcp_requests_total')).toBeDefined();
  });

  it('mcp_jobs{state}: jobs waiting for a worker and running, read from the job queue at scrape time', async () => {
    app = await listenMcp(
      {
        name: 'jobs',
        version: '1.0.0',
        jobs: { concurrency: 1 },
        observability: { metrics: { path: '/metrics', registry: new Registry() } },
      },
      [MeteredTools],
    );
    const jobs = async () => {
      const { samples } = await scrape(`${app!.base}/metrics`);
      return { waiting: valueOf(samples, 'mcp_jobs', { state: 'waiting' }), running: valueOf(samples, 'mcp_jobs', { state: 'running' }) };
    };
    for (const id of [1, 2]) expect(envelopeOf(await post(app.url, callTool(id, 'held_job'))).status).toBe('pending');
    await eventually(() => heldJobs.length === 1, 5_000, 'the first job to start');
    expect(await jobs()).toEqual({ waiting: 1, running: 1 });
    heldJobs.shift()!();
    await eventually(() => heldJobs.length === 1, 5_000, 'the second job to start');
    await eventually(async () => (await jobs()).waiting === 0, 5_000, 'the line to empty');
    expect(await jobs()).toEqual({ waiting: 0, running: 1 });
    heldJobs.shift()!();
    await eventually(async () => (await jobs()).running === 0, 5_000, 'the second job to end');
    const { samples } = await scrape(`${app.base}/metrics`);
    expect(valueOf(samples, 'mcp_tool_calls_total', { tool: 'held_job', status: 'pending' })).toBe(2);
  });

  it('metrics.enabled: false registers nothing', async () => {
    const registry = new Registry();
    app = await listenMcp({ name: 'off', version: '1.0.0', observability: { metrics: { enabled: false, path: '/metrics', registry } } }, [
      MeteredTools,
    ]);
    expect((await registry.metrics()).trim()).toBe('');
    expect((await fetch(`${app.base}/metrics`)).status).toBe(404);
  });

  it.each([
    [{ path: '/mcp' }, '"observability.metrics.path" must not collide with the MCP route /mcp'],
    [{ path: '/mcp/metrics' }, '"observability.metrics.path" must not collide with the MCP route /mcp'],
    [{ path: '/sse' }, '"observability.metrics.path" must not collide with the MCP route /sse'],
    [{ path: '/.well-known/metrics' }, 'must not collide with the MCP route /.well-known'],
    [{ path: '/' }, '"observability.metrics.path" must be a non-root URL path'],
    [{ enabled: 'yes' }, '"observability.metrics.enabled" must be a boolean'],
    [{ tenantLabel: 1 }, '"observability.metrics.tenantLabel" must be a boolean'],
    [{ registry: {} }, '"observability.metrics.registry" must be a prom-client Registry'],
    [{ registy: 'a misspelt key' }, '"observability.metrics.registry"'],
  ])('refuses metrics %j at boot', async (metrics, message) => {
    const error = await bootError(() =>
      listenMcp({ name: 'bad', version: '1.0.0', observability: { metrics: metrics as never } }, [MeteredTools]),
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain(message);
  });
});
