import { randomUUID } from 'node:crypto';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { INSTRUCTIONS, SERVER_INFO } from '../support/weather-expectations.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';

/** Every weather-server tool, in the order a client would explore them. */
const ALL_TOOLS = [
  'get_weather',
  'get_forecast',
  'create_weather_alert',
  'list_weather_alerts',
  'delete_weather_alert',
  'generate_climate_report',
  'get_job_status',
  'cancel_job',
].sort();

/** What one exchange looked like on the wire. */
interface Seen {
  rpcMethod?: string;
  sessionHeader: string | null;
  protocolVersionHeader: string | null;
  status: number;
}

function recordingFetch(log: Seen[]): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
    const response = await fetch(input, init);
    log.push({
      rpcMethod: body?.method,
      sessionHeader: response.headers.get('mcp-session-id'),
      protocolVersionHeader: headers.get('mcp-protocol-version'),
      status: response.status,
    });
    return response;
  };
}

/** The calls both clients make: the same tools, through whichever era the client speaks. */
interface ToolCaller {
  call(name: string, args?: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: any; content: unknown[] }>;
  list(): Promise<string[]>;
}

/** Calls every tool of the weather server and checks the answers; the same script for both eras. */
async function exerciseEveryTool(client: ToolCaller, confirmations: string[]): Promise<void> {
  expect((await client.list()).sort()).toEqual(ALL_TOOLS);

  const weather = await client.call('get_weather', { city: 'Beijing' });
  expect(weather.structuredContent).toMatchObject({ status: 'success', data: { city: { name: 'Beijing' } } });
  const forecast = await client.call('get_forecast', { city: '上海', days: 2 });
  expect(forecast.structuredContent.data.days).toHaveLength(2);

  const created = await client.call('create_weather_alert', {
    city: 'Paris',
    threshold_celsius: 30,
    priority: 'high',
    // Always 40 characters: a base-36 Math.random() is sometimes short, and the DTO wants 16 to 64 (a 0.75 % flake).
    idempotency_key: `key-${randomUUID()}`,
  });
  const alertId: string = created.structuredContent.data.alert_id;
  expect(alertId).toMatch(/^alr_/);
  expect(
    (await client.call('list_weather_alerts')).structuredContent.data.alerts.map((alert: { alert_id: string }) => alert.alert_id),
  ).toContain(alertId);

  const deleted = await client.call('delete_weather_alert', { alert_id: alertId });
  expect(deleted.structuredContent).toEqual({ status: 'success', data: { alert_id: alertId, deleted: true } });
  expect(confirmations.at(-1)).toBe('Delete the high alert for Paris at 30 °C?');
  expect(
    (await client.call('list_weather_alerts')).structuredContent.data.alerts.map((alert: { alert_id: string }) => alert.alert_id),
  ).not.toContain(alertId);
  const again = await client.call('delete_weather_alert', { alert_id: alertId });
  expect(again).toMatchObject({ isError: true, structuredContent: { status: 'error', error: { code: 'ALERT_NOT_FOUND' } } });

  // A long-running tool answers with a pending job (neither client declares the tasks extension).
  const report = await client.call('generate_climate_report', { city: 'Tokyo', years: 2 });
  expect(report.structuredContent).toMatchObject({ status: 'pending', data: { job_id: expect.any(String) } });
  const jobId: string = report.structuredContent.data.job_id;
  let status = await client.call('get_job_status', { job_id: jobId });
  for (let attempt = 0; status.structuredContent.status === 'pending' && attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = await client.call('get_job_status', { job_id: jobId });
  }
  expect(status.structuredContent).toMatchObject({ status: 'success', data: { city: { name: 'Tokyo' }, years: expect.any(Array) } });

  const toCancel = await client.call('generate_climate_report', { city: 'Tokyo', years: 5 });
  const cancelled = await client.call('cancel_job', { job_id: toCancel.structuredContent.data.job_id });
  expect(cancelled.structuredContent).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
}

describe('weather-server: a 2026-07-28 client and a 2025-11-25 client on the same running server', () => {
  let weather: RunningApp;
  const savedDelay = process.env.REPORT_DELAY_MS;

  beforeAll(async () => {
    process.env.REPORT_DELAY_MS = '200';
    weather = await startWeatherApp();
  });

  afterAll(async () => {
    await weather?.close();
    if (savedDelay === undefined) delete process.env.REPORT_DELAY_MS;
    else process.env.REPORT_DELAY_MS = savedDelay;
  });

  describe('@modelcontextprotocol/client 2.4.0 pinned to 2026-07-28', () => {
    let client: ClientV2;
    let log: Seen[];
    const confirmations: string[] = [];

    beforeAll(async () => {
      log = [];
      client = new ClientV2(
        { name: 'weather-2026-07-28-e2e', version: '1.0.0' },
        { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        confirmations.push(String(request.params.message));
        return { action: 'accept', content: { confirm: true } };
      });
      await client.connect(new TransportV2(new URL(weather.url), { fetch: recordingFetch(log) }));
    });

    afterAll(async () => {
      await client?.close();
    });

    it('speaks the 2026-07-28 era: server/discover, no initialize, no session', () => {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getDiscoverResult()).toMatchObject({ supportedVersions: ['2026-07-28'], instructions: INSTRUCTIONS });
      expect(client.getServerVersion()).toMatchObject({ name: SERVER_INFO.name, version: SERVER_INFO.version });
      expect(log.map((exchange) => exchange.rpcMethod)).not.toContain('initialize');
      expect(log.every((exchange) => exchange.sessionHeader === null)).toBe(true);
    });

    it('calls every tool; delete_weather_alert asks for confirmation through an input_required round', async () => {
      await exerciseEveryTool(
        {
          list: async () => (await client.listTools()).tools.map((tool) => tool.name),
          call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as never,
        },
        confirmations,
      );
      expect(confirmations).toHaveLength(1);
      const calls = log.filter((exchange) => exchange.rpcMethod === 'tools/call');
      expect(calls.every((exchange) => exchange.protocolVersionHeader === '2026-07-28' && exchange.status === 200)).toBe(true);
      expect(log.every((exchange) => exchange.sessionHeader === null)).toBe(true);
    });

    it('keeps the alert when the user declines', async () => {
      const decliner = new ClientV2(
        { name: 'weather-2026-07-28-decline', version: '1.0.0' },
        { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      decliner.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
      await decliner.connect(new TransportV2(new URL(weather.url)));
      try {
        const created = await decliner.callTool({
          name: 'create_weather_alert',
          arguments: { city: 'London', threshold_celsius: -5, priority: 'low', idempotency_key: 'decline-key-0123456789' },
        });
        const alertId = (created.structuredContent as { data: { alert_id: string } }).data.alert_id;
        const result = await decliner.callTool({ name: 'delete_weather_alert', arguments: { alert_id: alertId } });
        expect(result.structuredContent).toEqual({ status: 'success', data: { alert_id: alertId, deleted: false } });
      } finally {
        await decliner.close();
      }
    });

    it("reaches the 2026-07-28 era in 'auto' mode too (one server/discover probe)", async () => {
      const probing: Seen[] = [];
      const auto = new ClientV2({ name: 'weather-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await auto.connect(new TransportV2(new URL(weather.url), { fetch: recordingFetch(probing) }));
      try {
        expect(auto.getProtocolEra()).toBe('modern');
        expect(probing.filter((exchange) => exchange.rpcMethod === 'server/discover')).toHaveLength(1);
        expect((await auto.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })).isError).toBe(false);
      } finally {
        await auto.close();
      }
    });
  });

  describe('@modelcontextprotocol/sdk 1.x on 2025-11-25', () => {
    let client: ClientV1;
    let transport: TransportV1;
    const confirmations: string[] = [];

    beforeAll(async () => {
      client = new ClientV1({ name: 'weather-2025-11-25-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        confirmations.push(String(request.params.message));
        return { action: 'accept', content: { confirm: true } };
      });
      transport = new TransportV1(new URL(weather.url));
      await client.connect(transport);
    });

    afterAll(async () => {
      await client?.close();
    });

    it('negotiates 2025-11-25 in a session', () => {
      expect(transport.protocolVersion).toBe('2025-11-25');
      expect(transport.sessionId).toEqual(expect.any(String));
    });

    it('calls every tool; delete_weather_alert asks for confirmation with a real elicitation/create request', async () => {
      await exerciseEveryTool(
        {
          list: async () => (await client.listTools()).tools.map((tool) => tool.name),
          call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as never,
        },
        confirmations,
      );
      expect(confirmations).toHaveLength(1);
    });

    it('gets 2025 results: no resultType, no _meta server identity', async () => {
      const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
      expect(result).not.toHaveProperty('resultType');
      expect(result._meta).toBeUndefined();
    });
  });
});
