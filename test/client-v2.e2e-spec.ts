import { Client, ProtocolError, StreamableHTTPClientTransport, type VersionNegotiationOptions } from '@modelcontextprotocol/client';
import { todayUtc } from '../apps/weather-server/src/weather/weather.model.js';
import { errorEnvelope, expectedReport, INSTRUCTIONS, SERVER_INFO, WEATHER_TOOL_NAMES } from './support/weather-expectations.js';
import { type RunningApp, startWeatherApp } from './kit/apps.js';
import { envelopeOf } from './kit/http.js';

/** One HTTP exchange the client made, as seen from its fetch. */
interface Exchange {
  httpMethod: string;
  /** The JSON-RPC method(s) in the body, if any. */
  rpcMethod?: string;
  protocolVersionHeader: string | null;
  status: number;
  /** The response body, for the probe only (small). */
  body?: string;
}

/** A fetch that records every exchange, so the tests can see what went on the wire. */
function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(init?.headers ?? request.headers);
    let rpcMethod: string | undefined;
    if (typeof init?.body === 'string') {
      const parsed = JSON.parse(init.body) as { method?: string } | { method?: string }[];
      rpcMethod = Array.isArray(parsed) ? parsed.map((message) => message.method).join(',') : parsed.method;
    }
    const response = await fetch(input, init);
    const exchange: Exchange = {
      httpMethod: request.method,
      rpcMethod,
      protocolVersionHeader: headers.get('mcp-protocol-version'),
      status: response.status,
    };
    if (rpcMethod === 'server/discover') exchange.body = await response.clone().text();
    log.push(exchange);
    return response;
  };
}

// Mode 'auto' probes with server/discover and now gets the 2026-07-28 era: test/rev-2026-07-28/.
const MODES: [string, VersionNegotiationOptions | undefined][] = [
  ['default (no versionNegotiation option)', undefined],
  ["mode 'legacy'", { mode: 'legacy' }],
];

describe('newest official client (@modelcontextprotocol/client 2.4.0)', () => {
  let weather: RunningApp;

  beforeAll(async () => {
    weather = await startWeatherApp();
  });

  afterAll(async () => {
    await weather?.close();
  });

  describe.each(MODES)('versionNegotiation: %s', (_label, versionNegotiation) => {
    let client: Client;
    let log: Exchange[];

    beforeEach(async () => {
      log = [];
      client = new Client({ name: 'client-v2-e2e', version: '1.0.0' }, versionNegotiation ? { versionNegotiation } : undefined);
      const transport = new StreamableHTTPClientTransport(new URL(weather.url), { fetch: recordingFetch(log) });
      await client.connect(transport);
    });

    afterEach(async () => {
      await client?.close();
    });

    it('connects over the 2025-era initialize handshake', () => {
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(client.getServerVersion()).toEqual(SERVER_INFO);
      expect(client.getInstructions()).toBe(INSTRUCTIONS);
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      expect(client.getDiscoverResult()).toBeUndefined();

      const posts = log.filter((exchange) => exchange.httpMethod === 'POST');
      const initializeIndex = posts.findIndex((exchange) => exchange.rpcMethod === 'initialize');
      expect(initializeIndex).toBeGreaterThanOrEqual(0);
      expect(posts[initializeIndex].status).toBe(200);
      expect(posts.filter((exchange) => exchange.rpcMethod === 'server/discover')).toHaveLength(0);
      expect(posts[0].rpcMethod).toBe('initialize');
      const initialized = posts.find((exchange) => exchange.rpcMethod === 'notifications/initialized');
      expect(initialized?.status).toBe(202);
    });

    it('lists the tools', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(WEATHER_TOOL_NAMES));
      const getWeather = tools.find((tool) => tool.name === 'get_weather')!;
      expect(getWeather.outputSchema?.type).toBe('object');
      expect(getWeather.annotations?.readOnlyHint).toBe(true);
      expect(getWeather.inputSchema.required).toEqual(['city']);
    });

    it('calls get_weather for Beijing and gets the success envelope (validated against the outputSchema)', async () => {
      await client.listTools();
      const before = todayUtc();
      const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Beijing' } });
      const after = todayUtc();
      expect(result.isError).toBe(false);
      const structured = result.structuredContent as { data: { date: string } };
      expect([before, after]).toContain(structured.data.date);
      expect(structured).toEqual({ status: 'success', data: expectedReport('Beijing', structured.data.date) });
      expect(envelopeOf(result as never)).toEqual(structured);
    });

    it('gets the CITY_NOT_FOUND and VALIDATION_ERROR envelopes as isError results', async () => {
      await client.listTools();
      const notFound = await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
      expect(notFound.isError).toBe(true);
      expect(notFound.structuredContent).toEqual(errorEnvelope('CITY_NOT_FOUND'));
      const invalid = await client.callTool({ name: 'get_weather', arguments: { city: 'Beijing', unit: 'kelvin' } });
      expect(invalid.isError).toBe(true);
      expect(invalid.structuredContent).toEqual(errorEnvelope('VALIDATION_ERROR', ['unit']));
    });

    it('gets a -32602 protocol error for an unknown tool', async () => {
      const call = client.callTool({ name: 'get_stock_price', arguments: {} });
      await expect(call).rejects.toBeInstanceOf(ProtocolError);
      await expect(call).rejects.toMatchObject({ code: -32602 });
    });

    it('pings', async () => {
      await expect(client.ping()).resolves.toEqual({});
    });
  });
});
