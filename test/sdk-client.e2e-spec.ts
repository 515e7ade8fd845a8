import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { todayUtc } from '../apps/weather-server/src/weather/weather.model.js';
import {
  errorEnvelope,
  expectedForecast,
  expectedReport,
  INSTRUCTIONS,
  SERVER_INFO,
  WEATHER_TOOL_NAMES,
} from './support/weather-expectations.js';
import { type RunningApp, startWeatherApp } from './kit/apps.js';
import { envelopeOf } from './kit/http.js';

/** The official TypeScript SDK 1.x client over Streamable HTTP, against the real weather-server. */
describe('official SDK 1.x client (@modelcontextprotocol/sdk)', () => {
  let weather: RunningApp;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    weather = await startWeatherApp();
  });

  afterAll(async () => {
    await weather?.close();
  });

  beforeEach(async () => {
    client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(weather.url));
    await client.connect(transport);
  });

  afterEach(async () => {
    await client?.close();
  });

  it('connects: server identity, instructions, capabilities and the negotiated version', () => {
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    expect(client.getInstructions()).toBe(INSTRUCTIONS);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    // SDK 1.32 asks for 2025-11-25, which the server speaks and so echoes.
    expect(transport.protocolVersion).toBe('2025-11-25');
  });

  it('lists get_weather and get_forecast with their schemas', async () => {
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(WEATHER_TOOL_NAMES));
    const getWeather = tools.find((tool) => tool.name === 'get_weather')!;
    expect(getWeather.title).toBe('Current weather');
    expect(getWeather.annotations?.readOnlyHint).toBe(true);
    expect(getWeather.outputSchema?.type).toBe('object');
    expect(getWeather.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1, maxLength: 100 }, unit: { enum: ['celsius', 'fahrenheit'], default: 'celsius' } },
      required: ['city'],
      additionalProperties: false,
    });
    const getForecast = tools.find((tool) => tool.name === 'get_forecast')!;
    expect(getForecast.inputSchema.properties?.days).toMatchObject({ type: 'integer', minimum: 1, maximum: 14, default: 3 });
  });

  it('calls get_weather for Beijing; the SDK validates structuredContent against the outputSchema', async () => {
    await client.listTools(); // caches the outputSchema validators callTool() checks against
    const before = todayUtc();
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Beijing' } });
    const after = todayUtc();
    expect(result.isError).toBe(false);
    const structured = result.structuredContent as { status: string; data: { date: string } };
    expect([before, after]).toContain(structured.data.date);
    expect(structured).toEqual({ status: 'success', data: expectedReport('Beijing', structured.data.date) });
    expect(envelopeOf(result as never)).toEqual(structured);
  });

  it('calls get_weather for 北京 in Fahrenheit', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'get_weather', arguments: { city: '北京', unit: 'fahrenheit' } });
    const structured = result.structuredContent as { data: { date: string } };
    expect(result.isError).toBe(false);
    expect(structured).toEqual({ status: 'success', data: expectedReport('Beijing', structured.data.date, 'fahrenheit') });
  });

  it('reports an unknown city as an isError result with a CITY_NOT_FOUND envelope (valid against the outputSchema)', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(errorEnvelope('CITY_NOT_FOUND'));
    expect(envelopeOf(result as never)).toEqual(result.structuredContent);
  });

  it.each<[string, string, Record<string, unknown>, string[]]>([
    ['city ""', 'get_weather', { city: '' }, ['city']],
    ['city missing', 'get_weather', {}, ['city']],
    ['city a number', 'get_weather', { city: 7 }, ['city']],
    ['unit "kelvin"', 'get_weather', { city: 'Beijing', unit: 'kelvin' }, ['unit']],
    ['an extra property', 'get_weather', { city: 'Beijing', lang: 'en' }, ['lang']],
    ['days 0', 'get_forecast', { city: 'Beijing', days: 0 }, ['days']],
    ['days 2.5', 'get_forecast', { city: 'Beijing', days: 2.5 }, ['days']],
  ])('reports invalid arguments (%s) as a VALIDATION_ERROR envelope', async (_label, name, args, fields) => {
    await client.listTools();
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(errorEnvelope('VALIDATION_ERROR', fields));
  });

  it('calls get_forecast for 5 days', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Beijing', days: 5 } });
    const structured = result.structuredContent as { data: { days: { date: string }[] } };
    expect(result.isError).toBe(false);
    expect(structured.data.days).toHaveLength(5);
    expect(structured).toEqual({ status: 'success', data: expectedForecast('Beijing', structured.data.days[0].date, 5) });
  });

  it('throws McpError -32602 for an unknown tool', async () => {
    const call = client.callTool({ name: 'get_stock_price', arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('pings', async () => {
    await expect(client.ping()).resolves.toEqual({});
  });
});
