import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
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
import { envelopeOf, type HttpAnswer, post, rpc, send, SIMPLE_CLIENT_HEADERS, STACK_TRACE_PATTERN } from './kit/http.js';
import { openSse } from './kit/sse.js';

const MIB = 1024 * 1024;

/** Compiles a JSON Schema with the dialect it declares (2020-12 unless it says draft-07). */
function compileSchema(schema: Record<string, unknown>) {
  const draft07 = typeof schema.$schema === 'string' && schema.$schema.includes('draft-07');
  const ajv = draft07
    ? new AjvModule.default({ strict: false, allErrors: true })
    : new Ajv2020Module.default({ strict: false, allErrors: true });
  return ajv.compile(schema);
}

/** A JSON-RPC body of exactly `size` bytes: a ping whose params carry padding. */
function pingOfSize(size: number): string {
  const empty = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: '' } });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(size - Buffer.byteLength(empty)) } });
  expect(Buffer.byteLength(body)).toBe(size);
  return body;
}

function expectJsonResponse(response: HttpAnswer, status = 200): void {
  expect(response.status).toBe(status);
  expect(response.contentType).toMatch(/^application\/json/);
}

function expectEmpty202(response: HttpAnswer): void {
  expect(response.status).toBe(202);
  expect(response.text).toBe('');
}

function expectNoStackTrace(response: HttpAnswer): void {
  expect(response.text).not.toMatch(STACK_TRACE_PATTERN);
}

describe('MCP Streamable HTTP endpoint, raw HTTP (bodyParser: false, as main.ts boots it)', () => {
  let weather: RunningApp;
  let url: string;

  beforeAll(async () => {
    weather = await startWeatherApp();
    url = weather.url;
  });

  afterAll(async () => {
    await weather?.close();
  });

  /** A tools/call with the simple client headers; returns the parsed JSON-RPC response. */
  async function callTool(name: string, args: unknown, id: string | number = 'call'): Promise<any> {
    const response = await post(url, rpc(id, 'tools/call', { name, arguments: args }), SIMPLE_CLIENT_HEADERS);
    expectJsonResponse(response);
    expect(response.json).toMatchObject({ jsonrpc: '2.0', id });
    return response.json;
  }

  describe('simple HTTP client replay (string ids, Bearer header, never an Mcp-Session-Id)', () => {
    it('runs initialize → notifications/initialized → tools/list → tools/call → ping', async () => {
      const init = await post(
        url,
        rpc('1', 'initialize', {
          protocolVersion: '2024-11-05',
          capabilities: {},
          clientInfo: { name: 'simple-http-client', version: '3.2.1' },
        }),
        SIMPLE_CLIENT_HEADERS,
      );
      expectJsonResponse(init);
      expect(init.json).toEqual({
        jsonrpc: '2.0',
        id: '1',
        result: {
          protocolVersion: '2024-11-05',
          capabilities: expect.objectContaining({ tools: expect.any(Object) }),
          serverInfo: SERVER_INFO,
          instructions: INSTRUCTIONS,
        },
      });

      const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, SIMPLE_CLIENT_HEADERS);
      expectEmpty202(initialized);

      const list = await post(url, rpc('2', 'tools/list'), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(list);
      expect(list.json).toMatchObject({ jsonrpc: '2.0', id: '2' });
      expect(list.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(WEATHER_TOOL_NAMES));

      const before = todayUtc();
      const call = await post(url, rpc('3', 'tools/call', { name: 'get_weather', arguments: { city: 'Beijing' } }), SIMPLE_CLIENT_HEADERS);
      const after = todayUtc();
      expectJsonResponse(call);
      expect(call.json).toMatchObject({ jsonrpc: '2.0', id: '3' });
      const date = call.json.result.structuredContent.data.date;
      expect([before, after]).toContain(date);
      expect(call.json.result.structuredContent).toEqual({ status: 'success', data: expectedReport('Beijing', date) });
      expect(call.json.result.isError).toBe(false);

      const ping = await post(url, rpc('4', 'ping'), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(ping);
      expect(ping.json).toEqual({ jsonrpc: '2.0', id: '4', result: {} });
    });

    it('serves tools/call statelessly: no initialize and no Mcp-Session-Id needed', async () => {
      const response = await post(
        url,
        rpc('9', 'tools/call', { name: 'get_weather', arguments: { city: 'Tokyo' } }),
        SIMPLE_CLIENT_HEADERS,
      );
      expectJsonResponse(response);
      expect(response.json.result.isError).toBe(false);
      expect(response.json.result.structuredContent.data.city).toEqual(expectedReport('Tokyo', todayUtc()).city);
    });
  });

  describe('lifecycle', () => {
    it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('echoes the supported protocol version %s', async (version) => {
      const response = await post(
        url,
        rpc(1, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } }),
        SIMPLE_CLIENT_HEADERS,
      );
      expectJsonResponse(response);
      expect(response.json.result.protocolVersion).toBe(version);
      expect(response.json.result.serverInfo).toEqual(SERVER_INFO);
    });

    it.each(['2099-01-01', '2024-10-07', '2026-07-28', 'latest'])(
      'answers an unsupported version (%s) with 2025-11-25, not an error',
      async (version) => {
        const response = await post(
          url,
          rpc(1, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } }),
          SIMPLE_CLIENT_HEADERS,
        );
        expectJsonResponse(response);
        expect(response.json.error).toBeUndefined();
        expect(response.json.result.protocolVersion).toBe('2025-11-25');
      },
    );

    it('answers initialize without protocolVersion with -32602, echoing the id', async () => {
      const response = await post(
        url,
        rpc('init-1', 'initialize', { capabilities: {}, clientInfo: { name: 't', version: '1' } }),
        SIMPLE_CLIENT_HEADERS,
      );
      expectJsonResponse(response);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 'init-1', error: { code: -32602, message: expect.any(String) } });
    });

    it('answers ping with {} before any initialize (fresh app)', async () => {
      const fresh = await startWeatherApp();
      try {
        const response = await post(fresh.url, rpc('p', 'ping'), SIMPLE_CLIENT_HEADERS);
        expectJsonResponse(response);
        expect(response.json).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
      } finally {
        await fresh.close();
      }
    });

    it('accepts notifications and client responses with 202 and an empty body', async () => {
      expectEmpty202(await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, SIMPLE_CLIENT_HEADERS));
      expectEmpty202(
        await post(
          url,
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nope', reason: 'test' } },
          SIMPLE_CLIENT_HEADERS,
        ),
      );
      expectEmpty202(await post(url, { jsonrpc: '2.0', id: 'server-1', result: {} }, SIMPLE_CLIENT_HEADERS));
      expectEmpty202(await post(url, { jsonrpc: '2.0', id: 'server-2', error: { code: -1, message: 'declined' } }, SIMPLE_CLIENT_HEADERS));
    });
  });

  describe('JSON-RPC ids', () => {
    it.each<[string, string | number]>([
      ['string "1"', '1'],
      ['number 1', 1],
      ['number 0', 0],
      ['large integer', 9007199254740991],
      ['negative number', -7],
      ['string "abc"', 'abc'],
      ['empty string', ''],
      ['string "0"', '0'],
    ])('echoes %s with its exact type and value', async (_label, id) => {
      const response = await post(url, rpc(id, 'ping'), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response);
      expect(response.json).toEqual({ jsonrpc: '2.0', id, result: {} });
      expect(typeof response.json.id).toBe(typeof id);
      expect(response.text).toContain(`"id":${JSON.stringify(id)}`);
    });

    it('keeps "1" a string and 1 a number in error responses too', async () => {
      const asString = await post(url, rpc('1', 'no/such/method'), SIMPLE_CLIENT_HEADERS);
      const asNumber = await post(url, rpc(1, 'no/such/method'), SIMPLE_CLIENT_HEADERS);
      expect(asString.json.id).toBe('1');
      expect(asNumber.json.id).toBe(1);
      expect(asString.json.error.code).toBe(-32601);
      expect(asNumber.json.error.code).toBe(-32601);
    });
  });

  describe('tools/list', () => {
    let tools: any[];

    beforeAll(async () => {
      const response = await post(url, rpc('list', 'tools/list'), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response);
      expect(response.json.result.nextCursor).toBeUndefined();
      tools = response.json.result.tools;
    });

    const tool = (name: string) => {
      const found = tools.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`tool ${name} not listed`);
      return found;
    };

    it('lists get_weather and get_forecast, once each', () => {
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(WEATHER_TOOL_NAMES));
      expect(new Set(names).size).toBe(names.length);
    });

    it('describes get_weather: title, annotations, description', () => {
      const weatherTool = tool('get_weather');
      expect(weatherTool.title).toBe('Current weather');
      expect(weatherTool.description).toEqual(expect.stringMatching(/\S/));
      expect(weatherTool.annotations).toMatchObject({ readOnlyHint: true });
    });

    it('generates the get_weather inputSchema from GetWeatherDto', () => {
      const schema = tool('get_weather').inputSchema;
      expect(schema).toMatchObject({
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1, maxLength: 100 },
          unit: { enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        },
        additionalProperties: false,
      });
      expect(Object.keys(schema.properties).sort()).toEqual(['city', 'unit']);
      expect(schema.required).toEqual(['city']);
    });

    it('generates the get_forecast inputSchema from GetForecastDto', () => {
      const schema = tool('get_forecast').inputSchema;
      expect(schema).toMatchObject({
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1, maxLength: 100 },
          days: { type: 'integer', minimum: 1, maximum: 14, default: 3 },
          unit: { enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        },
        additionalProperties: false,
      });
      expect(Object.keys(schema.properties).sort()).toEqual(['city', 'days', 'unit']);
      expect(schema.required).toEqual(['city']);
    });

    it('input schemas agree with the server-side validator on good and bad arguments', () => {
      const weatherArgs = compileSchema(tool('get_weather').inputSchema);
      expect(weatherArgs({ city: 'Beijing' })).toBe(true);
      expect(weatherArgs({ city: '北京', unit: 'fahrenheit' })).toBe(true);
      expect(weatherArgs({})).toBe(false);
      expect(weatherArgs({ city: '' })).toBe(false);
      expect(weatherArgs({ city: 'x'.repeat(101) })).toBe(false);
      expect(weatherArgs({ city: 42 })).toBe(false);
      expect(weatherArgs({ city: 'Beijing', unit: 'kelvin' })).toBe(false);
      expect(weatherArgs({ city: 'Beijing', extra: true })).toBe(false);

      const forecastArgs = compileSchema(tool('get_forecast').inputSchema);
      expect(forecastArgs({ city: 'Beijing', days: 14 })).toBe(true);
      expect(forecastArgs({ city: 'Beijing', days: 0 })).toBe(false);
      expect(forecastArgs({ city: 'Beijing', days: 15 })).toBe(false);
      expect(forecastArgs({ city: 'Beijing', days: 2.5 })).toBe(false);
    });

    it('gives get_weather an object outputSchema that accepts its real success and error envelopes', async () => {
      const outputSchema = tool('get_weather').outputSchema;
      expect(outputSchema).toMatchObject({ type: 'object' });
      const validate = compileSchema(outputSchema);

      const success = await callTool('get_weather', { city: 'Paris', unit: 'fahrenheit' });
      expect(validate(success.result.structuredContent)).toBe(true);
      const notFound = await callTool('get_weather', { city: 'Atlantis' });
      expect(validate(notFound.result.structuredContent)).toBe(true);
      const invalid = await callTool('get_weather', { city: '' });
      expect(validate(invalid.result.structuredContent)).toBe(true);
      // and it is not vacuous
      expect(validate({ status: 'success', data: { city: 'Paris' } })).toBe(false);
    });
  });

  describe('tools/call', () => {
    it('returns the Beijing report as an envelope in content[0].text and structuredContent', async () => {
      const before = todayUtc();
      const response = await callTool('get_weather', { city: 'Beijing' }, 'w1');
      const after = todayUtc();
      const result = response.result;
      expect(result.isError).toBe(false);
      expect(result.content).toHaveLength(1);
      expect(result.content[0].type).toBe('text');
      expect(envelopeOf(result)).toEqual(result.structuredContent);
      const date = result.structuredContent.data.date;
      expect([before, after]).toContain(date);
      expect(result.structuredContent).toEqual({ status: 'success', data: expectedReport('Beijing', date) });
    });

    it('gives 北京 the same data as Beijing', async () => {
      const english = await callTool('get_weather', { city: 'Beijing' });
      const chinese = await callTool('get_weather', { city: '北京' });
      expect(chinese.result.isError).toBe(false);
      expect(chinese.result.structuredContent).toEqual(english.result.structuredContent);
      expect(chinese.result.structuredContent.data.city).toEqual({ id: 'beijing', name: 'Beijing', nameZh: '北京', country: 'CN' });
    });

    it('converts to Fahrenheit on request', async () => {
      const response = await callTool('get_weather', { city: 'Beijing', unit: 'fahrenheit' });
      const data = response.result.structuredContent.data;
      expect(response.result.isError).toBe(false);
      expect(data.unit).toBe('fahrenheit');
      expect(data).toEqual(expectedReport('Beijing', data.date, 'fahrenheit'));
    });

    it('answers an unknown city with an isError CITY_NOT_FOUND envelope', async () => {
      const response = await callTool('get_weather', { city: 'Atlantis' });
      const result = response.result;
      expect(response.error).toBeUndefined();
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual(errorEnvelope('CITY_NOT_FOUND'));
      expect(result.structuredContent.error.message).toContain('Atlantis');
      expect(envelopeOf(result)).toEqual(result.structuredContent);
    });

    it.each<[string, string, Record<string, unknown>, string[]]>([
      ['city ""', 'get_weather', { city: '' }, ['city']],
      ['city missing', 'get_weather', {}, ['city']],
      ['city a number', 'get_weather', { city: 42 }, ['city']],
      ['city too long', 'get_weather', { city: 'x'.repeat(101) }, ['city']],
      ['unit "kelvin"', 'get_weather', { city: 'Beijing', unit: 'kelvin' }, ['unit']],
      ['an extra property', 'get_weather', { city: 'Beijing', country: 'CN' }, ['country']],
      ['days 0', 'get_forecast', { city: 'Beijing', days: 0 }, ['days']],
      ['days 15', 'get_forecast', { city: 'Beijing', days: 15 }, ['days']],
      ['days 2.5', 'get_forecast', { city: 'Beijing', days: 2.5 }, ['days']],
      ['days a string', 'get_forecast', { city: 'Beijing', days: '5' }, ['days']],
    ])('rejects %s with a VALIDATION_ERROR envelope naming the fields', async (_label, name, args, fields) => {
      const response = await callTool(name, args);
      const result = response.result;
      expect(response.error).toBeUndefined();
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual(errorEnvelope('VALIDATION_ERROR', fields));
      expect(envelopeOf(result)).toEqual(result.structuredContent);
      expectNoStackTrace({ text: JSON.stringify(response) } as HttpAnswer);
    });

    it('returns a 5-day forecast with consecutive dates', async () => {
      const before = todayUtc();
      const response = await callTool('get_forecast', { city: 'Beijing', days: 5 });
      const after = todayUtc();
      const data = response.result.structuredContent.data;
      expect(response.result.isError).toBe(false);
      expect(data.days).toHaveLength(5);
      expect([before, after]).toContain(data.days[0].date);
      expect(response.result.structuredContent).toEqual({ status: 'success', data: expectedForecast('Beijing', data.days[0].date, 5) });
      expect(envelopeOf(response.result)).toEqual(response.result.structuredContent);
    });

    it('defaults get_forecast to 3 days in Celsius', async () => {
      const response = await callTool('get_forecast', { city: '上海' });
      const data = response.result.structuredContent.data;
      expect(response.result.isError).toBe(false);
      expect(data).toEqual(expectedForecast('Shanghai', data.days[0].date, 3));
    });
  });

  describe('JSON-RPC errors', () => {
    it('answers unparsable JSON with HTTP 400 and -32700, id null', async () => {
      const response = await post(url, '{"jsonrpc":"2.0","id":"1","method":', SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 400);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
      expectNoStackTrace(response);
    });

    it('answers an empty body with -32700', async () => {
      const response = await post(url, '', SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 400);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    });

    it.each<[string, unknown, string | number | null]>([
      ['a non-JSON-RPC object', { foo: 1 }, null],
      ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 'v1', method: 'ping' }, 'v1'],
      ['a missing jsonrpc member', { id: 'v2', method: 'ping' }, 'v2'],
      ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
      ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, null],
      ['a boolean id', { jsonrpc: '2.0', id: true, method: 'ping' }, null],
      ['a JSON string', 'just a string', null],
      ['a JSON number', 42, null],
      ['a non-string method', { jsonrpc: '2.0', id: 'v3', method: 5 }, 'v3'],
      ['array params', { jsonrpc: '2.0', id: 'v4', method: 'ping', params: [1, 2] }, 'v4'],
    ])('answers %s with -32600', async (_label, body, id) => {
      const response = await post(url, JSON.stringify(body), SIMPLE_CLIENT_HEADERS);
      expect(response.contentType).toMatch(/^application\/json/);
      expect([200, 400]).toContain(response.status);
      expect(response.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.any(String) } });
      // The id is echoed when it could be read, and null otherwise (JSON-RPC 2.0 §5).
      expect([id, null]).toContainEqual(response.json.id);
      expectNoStackTrace(response);
    });

    it('answers an unknown method with -32601 and HTTP 200', async () => {
      const response = await post(url, rpc('m1', 'weather/unknown-method'), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 200);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 'm1', error: { code: -32601, message: expect.any(String) } });
    });

    it('answers tools/call of an unknown tool with -32602', async () => {
      const response = await post(url, rpc('t1', 'tools/call', { name: 'get_stock_price', arguments: {} }), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 200);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 't1', error: { code: -32602, message: expect.any(String) } });
    });

    it('answers tools/call without a name with -32602', async () => {
      const response = await post(url, rpc('t2', 'tools/call', { arguments: { city: 'Beijing' } }), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 200);
      expect(response.json).toMatchObject({ id: 't2', error: { code: -32602 } });
    });

    it.each<[string, unknown]>([
      ['a string', 'Beijing'],
      ['an array', ['Beijing']],
      ['a number', 1],
      ['true', true],
    ])('answers tools/call whose arguments is %s with -32602', async (_label, args) => {
      const response = await post(url, rpc('t3', 'tools/call', { name: 'get_weather', arguments: args }), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 200);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 't3', error: { code: -32602, message: expect.any(String) } });
    });

    it('answers server/discover (the 2026-era probe) with -32601 and HTTP 200', async () => {
      const response = await post(url, rpc(0, 'server/discover'), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 200);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 0, error: { code: -32601, message: expect.any(String) } });
    });

    it('answers server/discover sent exactly as the v2 client probes (2026-07-28 headers and _meta) with a DiscoverResult (test/rev-2026-07-28 covers the era)', async () => {
      const response = await send(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'server/discover',
        },
        body: rpc(0, 'server/discover', {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '2.4.0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        }),
      });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ jsonrpc: '2.0', id: 0, result: { resultType: 'complete', supportedVersions: ['2026-07-28'] } });
      expect(response.headers.get('mcp-session-id')).toBeNull();
    });
  });

  describe('batches', () => {
    it('processes a batch without a version header: the spec says to assume 2025-03-26, where batches exist', async () => {
      const response = await post(url, [rpc(1, 'ping'), rpc(2, 'tools/list')], SIMPLE_CLIENT_HEADERS);
      expect(response.contentType).toMatch(/^application\/json/);
      expect(response.json).toEqual([
        { jsonrpc: '2.0', id: 1, result: {} },
        expect.objectContaining({ jsonrpc: '2.0', id: 2, result: expect.objectContaining({ tools: expect.any(Array) }) }),
      ]);
    });

    it('rejects a batch with -32600 in a session negotiated at 2025-06-18 (no header needed)', async () => {
      const init = await fetch(url, {
        method: 'POST',
        headers: SIMPLE_CLIENT_HEADERS,
        body: JSON.stringify(
          rpc('i', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
        ),
      });
      const sessionId = init.headers.get('mcp-session-id');
      expect(sessionId).toBeTruthy();
      const response = await post(url, [rpc(1, 'ping')], { ...SIMPLE_CLIENT_HEADERS, 'Mcp-Session-Id': sessionId! });
      expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it.each(['2025-06-18', '2025-11-25'])('rejects a JSON array with -32600 under MCP-Protocol-Version %s', async (version) => {
      const response = await post(url, [rpc(1, 'ping')], { ...SIMPLE_CLIENT_HEADERS, 'MCP-Protocol-Version': version });
      expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('answers each request of a batch under MCP-Protocol-Version 2025-03-26, in an array', async () => {
      const response = await post(
        url,
        [
          rpc(1, 'ping'),
          rpc('two', 'tools/call', { name: 'get_weather', arguments: { city: 'Beijing' } }),
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          rpc('three', 'no/such/method'),
        ],
        { ...SIMPLE_CLIENT_HEADERS, 'MCP-Protocol-Version': '2025-03-26' },
      );
      expectJsonResponse(response, 200);
      expect(Array.isArray(response.json)).toBe(true);
      expect(response.json).toHaveLength(3);
      const byId = new Map<unknown, any>(response.json.map((reply: { id: unknown }) => [reply.id, reply]));
      expect(byId.get(1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      const call = byId.get('two');
      expect(call.result.isError).toBe(false);
      expect(call.result.structuredContent).toEqual({
        status: 'success',
        data: expectedReport('Beijing', call.result.structuredContent.data.date),
      });
      expect(byId.get('three')).toMatchObject({ id: 'three', error: { code: -32601 } });
    });

    it('answers a 2025-03-26 batch of notifications only with 202 and an empty body', async () => {
      const response = await send(url, {
        method: 'POST',
        headers: {
          ...SIMPLE_CLIENT_HEADERS,
          'MCP-Protocol-Version': '2025-03-26',
        },
        body: [{ jsonrpc: '2.0', method: 'notifications/initialized' }],
      });
      expectEmpty202(response);
    });
  });

  describe('HTTP layer', () => {
    it('refuses an unsupported MCP-Protocol-Version header on a non-initialize request with 400', async () => {
      const response = await post(url, rpc('h1', 'tools/list'), { ...SIMPLE_CLIENT_HEADERS, 'MCP-Protocol-Version': '1999-01-01' });
      expect(response.status).toBe(400);
      expectNoStackTrace(response);
    });

    it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('accepts MCP-Protocol-Version %s on tools/list', async (version) => {
      const response = await post(url, rpc('h2', 'tools/list'), { ...SIMPLE_CLIENT_HEADERS, 'MCP-Protocol-Version': version });
      expectJsonResponse(response, 200);
      expect(response.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(WEATHER_TOOL_NAMES));
    });

    it('refuses Content-Type text/plain with 415', async () => {
      const response = await post(url, JSON.stringify(rpc(1, 'ping')), { ...SIMPLE_CLIENT_HEADERS, 'Content-Type': 'text/plain' });
      expect(response.status).toBe(415);
      expectNoStackTrace(response);
    });

    it('accepts Content-Type application/json; charset=utf-8', async () => {
      const response = await post(url, rpc(1, 'ping'), { ...SIMPLE_CLIENT_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
      expectJsonResponse(response, 200);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('accepts a body of exactly 1 MiB', async () => {
      const response = await post(url, pingOfSize(MIB), SIMPLE_CLIENT_HEADERS);
      expectJsonResponse(response, 200);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('refuses a body over 1 MiB (declared Content-Length) with 413', async () => {
      const response = await post(url, pingOfSize(MIB + 1), SIMPLE_CLIENT_HEADERS);
      expect(response.status).toBe(413);
      expectNoStackTrace(response);
    });

    it('refuses a chunked body over 1 MiB (no Content-Length) with 413', async () => {
      const bytes = Buffer.from(pingOfSize(MIB + 64 * 1024));
      const chunkSize = 64 * 1024;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += chunkSize) controller.enqueue(bytes.subarray(offset, offset + chunkSize));
          controller.close();
        },
      });
      const response = await send(url, { method: 'POST', headers: SIMPLE_CLIENT_HEADERS, body: stream, duplex: 'half' } as RequestInit);
      expect(response.status).toBe(413);
    });

    it('answers GET /mcp without a session and without Accept: text/event-stream with a 4xx, never a hang or a 5xx', async () => {
      const opening = await openSse(url, { Accept: 'application/json', Authorization: 'Bearer some-key' });
      opening.close();
      expect(opening.status).toBeGreaterThanOrEqual(400);
      expect(opening.status).toBeLessThan(500);
      expect(opening.contentType).not.toMatch(/event-stream/);
      expect(opening.firstEvent).not.toMatch(STACK_TRACE_PATTERN);
    });

    it('answers GET /mcp asking for SSE with 405, or with the 2024-11-05 HTTP+SSE stream (first event `endpoint`)', async () => {
      const opening = await openSse(url, { Accept: 'text/event-stream', Authorization: 'Bearer some-key' });
      opening.close();
      if (opening.status === 405) return; // no stream offered at this endpoint
      expect(opening.status).toBe(200);
      expect(opening.contentType).toMatch(/^text\/event-stream/);
      expect(opening.firstEvent).toMatch(/^event: endpoint\r?\ndata: \S+sessionId=\S+$/);
    });

    it('never leaks a stack trace or a file path, whatever the failure', async () => {
      const responses = await Promise.all([
        post(url, '{', SIMPLE_CLIENT_HEADERS),
        post(url, '[{"jsonrpc":"2.0","id":1,"method":"ping"},', SIMPLE_CLIENT_HEADERS),
        post(url, { foo: 1 }, SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'nope'), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'tools/call', { name: 'nope' }), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'tools/call', { name: 'get_weather', arguments: 'x' }), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'tools/call', { name: 'get_weather', arguments: { city: null } }), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'tools/call', { name: 'get_weather', arguments: { city: 'Nowhere' } }), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'tools/call', { name: 'get_forecast', arguments: { city: 'Beijing', days: -1 } }), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'tools/call', { name: 'get_forecast', arguments: { city: { toString: 1 } } }), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'tools/list', { cursor: 'garbage' }), SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'initialize', { protocolVersion: 7 }), SIMPLE_CLIENT_HEADERS),
        post(url, [rpc(1, 'ping')], SIMPLE_CLIENT_HEADERS),
        post(url, rpc(1, 'ping'), { ...SIMPLE_CLIENT_HEADERS, 'MCP-Protocol-Version': 'garbage' }),
        send(url, { method: 'POST', headers: { 'Content-Type': 'application/xml' }, body: 'x' }),
        send(url, { method: 'GET', headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(5_000) }),
        send(url, { method: 'DELETE' }),
      ]);
      for (const response of responses) {
        expect(response.status).toBeLessThan(500);
        expectNoStackTrace(response);
      }
    });
  });
});

describe("MCP endpoint with Nest's default body parser", () => {
  let weather: RunningApp;

  beforeAll(async () => {
    weather = await startWeatherApp({ bodyParser: true });
  });

  afterAll(async () => {
    await weather?.close();
  });

  it('still answers malformed JSON with HTTP 400 and a -32700 JSON-RPC error', async () => {
    const response = await post(weather.url, '{"jsonrpc":"2.0","id":"1",', SIMPLE_CLIENT_HEADERS);
    expectJsonResponse(response, 400);
    expect(response.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    expectNoStackTrace(response);
  });

  it('runs initialize and a normal tools/call', async () => {
    const init = await post(
      weather.url,
      rpc('1', 'initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'simple-http-client', version: '1' } }),
      SIMPLE_CLIENT_HEADERS,
    );
    expectJsonResponse(init);
    expect(init.json.result).toMatchObject({ protocolVersion: '2024-11-05', serverInfo: SERVER_INFO });

    expectEmpty202(await post(weather.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, SIMPLE_CLIENT_HEADERS));

    const call = await post(
      weather.url,
      rpc('2', 'tools/call', { name: 'get_weather', arguments: { city: 'Beijing' } }),
      SIMPLE_CLIENT_HEADERS,
    );
    expectJsonResponse(call);
    expect(call.json.id).toBe('2');
    const result = call.json.result;
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ status: 'success', data: expectedReport('Beijing', result.structuredContent.data.date) });
    expect(envelopeOf(result)).toEqual(result.structuredContent);
  });

  it('still reports invalid arguments as a VALIDATION_ERROR envelope', async () => {
    const call = await post(
      weather.url,
      rpc(3, 'tools/call', { name: 'get_forecast', arguments: { city: 'Beijing', days: 0 } }),
      SIMPLE_CLIENT_HEADERS,
    );
    expectJsonResponse(call);
    expect(call.json.result.isError).toBe(true);
    expect(call.json.result.structuredContent).toEqual(errorEnvelope('VALIDATION_ERROR', ['days']));
  });
});
