import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { callTool, envelopeOf, openSession, post } from '../kit/http.js';

/**
 * A client sends `null` for an optional argument. The advertised inputSchema does not allow null there, so the
 * server must refuse it too (class-validator's @IsOptional() alone would let null through to the tool).
 */
describe('null for an optional argument (weather-server, raw HTTP)', () => {
  let app: RunningApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    app = await startWeatherApp();
    headers = { 'Mcp-Session-Id': (await openSession(app.url)).sessionId };
  });
  afterAll(() => app?.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = await post(app.url, callTool(1, name, args), headers);
    expect(answer.status).toBe(200);
    return { isError: answer.json?.result?.isError, envelope: envelopeOf(answer) };
  };

  it.each([
    ['get_weather', { city: 'Beijing', unit: null }, 'unit'],
    ['get_forecast', { city: 'Beijing', days: null }, 'days'],
    ['generate_climate_report', { city: 'Beijing', years: null }, 'years'],
  ])('%s with %j → VALIDATION_ERROR naming the field', async (name, args, field) => {
    const { isError, envelope } = await call(name, args);
    expect(isError).toBe(true);
    expect(envelope).toEqual({
      status: 'error',
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining(field), retryable: false, fields: [field] },
    });
  });

  it('the advertised inputSchemas do not allow null for those properties', async () => {
    const answer = await post(app.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers);
    const tools = answer.json.result.tools as { name: string; inputSchema: { properties: Record<string, { type?: unknown }> } }[];
    const typeOf = (tool: string, property: string) => tools.find((candidate) => candidate.name === tool)?.inputSchema.properties[property];
    expect(typeOf('get_weather', 'unit')).toMatchObject({ type: 'string' });
    expect(typeOf('get_forecast', 'days')).toMatchObject({ type: 'integer' });
    expect(typeOf('generate_climate_report', 'years')).toMatchObject({ type: 'integer' });
  });

  it('an absent optional argument still takes its default', async () => {
    const weather = await call('get_weather', { city: 'Beijing' });
    expect(weather.envelope).toMatchObject({ status: 'success', data: { unit: 'celsius' } });
    const forecast = await call('get_forecast', { city: 'Beijing' });
    expect(forecast.envelope).toMatchObject({ status: 'success', data: { unit: 'celsius' } });
    expect(forecast.envelope.data.days).toHaveLength(3);
  });
});
