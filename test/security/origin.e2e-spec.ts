import { startSecApp } from './fixtures/sec-app.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { type HttpAnswer, post, rpc, send } from '../kit/http.js';

/** DNS-rebinding protection: a foreign `Origin` gets 403 on every MCP route; local and configured origins pass. */

function expectOriginRefused(answer: HttpAnswer): void {
  expect(answer.status).toBe(403);
  expect(answer.json).toMatchObject({
    jsonrpc: '2.0',
    id: null,
    error: { code: expect.any(Number), data: { status: 'error', error: { code: 'FORBIDDEN', retryable: false } } },
  });
}

const ping = (url: string, origin?: string) => post(url, rpc(1, 'ping'), origin === undefined ? {} : { Origin: origin });

describe('Origin validation (weather-server defaults)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startWeatherApp();
  });
  afterAll(() => app?.close());

  it('Origin: http://evil.example → 403 FORBIDDEN', async () => {
    expectOriginRefused(await ping(app.url, 'http://evil.example'));
  });

  it('no Origin (non-browser client) → allowed', async () => {
    expect((await ping(app.url)).status).toBe(200);
  });

  it.each(['http://localhost:5173', 'http://localhost', 'http://127.0.0.1:8080', 'https://localhost:3000', 'http://[::1]:5173'])(
    'local origin %s → allowed',
    async (origin) => {
      expect((await ping(app.url, origin)).status).toBe(200);
    },
  );

  it.each([
    'null',
    'http://localhost.evil.example',
    'http://127.0.0.1.evil.example',
    'http://evil.example:5173',
    'file://',
    'chrome-extension://abcdefghijklmnop',
    'ftp://localhost',
    'http://192.168.1.10:5173',
    'http://0.0.0.0:5173',
  ])('foreign or opaque origin %s → 403', async (origin) => {
    expectOriginRefused(await ping(app.url, origin));
  });

  it('the check covers GET/DELETE /mcp, GET /sse and POST /messages', async () => {
    const origin = { Origin: 'http://evil.example' };
    expectOriginRefused(await send(app.url, { method: 'GET', headers: { Accept: 'text/event-stream', ...origin } }));
    expectOriginRefused(await send(app.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': 'x', ...origin } }));
    expectOriginRefused(await send(`${app.base}/sse`, { method: 'GET', headers: { Accept: 'text/event-stream', ...origin } }));
    expectOriginRefused(await post(`${app.base}/messages?sessionId=x`, rpc(1, 'ping'), origin));
  });

  it('a refused origin has no side effect: initialize from it creates no session', async () => {
    const answer = await post(
      app.url,
      rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
      { Origin: 'http://evil.example' },
    );
    expectOriginRefused(answer);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
  });
});

describe('Origin validation with http.allowedOrigins: [https://app.example.com]', () => {
  let app: RunningApp;
  const KEY = 'origin-suite-api-key-0000000000001';
  beforeAll(async () => {
    app = await startSecApp({ http: { allowedOrigins: ['https://app.example.com'] }, auth: { apiKeys: [{ key: KEY, tenant: 'acme' }] } });
  });
  afterAll(() => app?.close());

  const pingWith = (origin: string) => post(app.url, rpc(1, 'ping'), { 'X-API-Key': KEY, Origin: origin });

  it('the configured origin is allowed (case-insensitively)', async () => {
    expect((await pingWith('https://app.example.com')).status).toBe(200);
    expect((await pingWith('HTTPS://APP.EXAMPLE.COM')).status).toBe(200);
  });

  it('localhost origins stay allowed', async () => {
    expect((await pingWith('http://localhost:5173')).status).toBe(200);
  });

  it.each([
    'http://app.example.com',
    'https://app.example.com:8443',
    'https://app.example.com.evil.example',
    'https://evil-app.example.com',
    'https://example.com',
  ])('a look-alike origin %s → 403', async (origin) => {
    expectOriginRefused(await pingWith(origin));
  });

  it('a foreign origin is refused even with valid credentials; the origin check comes before authentication', async () => {
    expectOriginRefused(await pingWith('http://evil.example'));
    expectOriginRefused(await post(app.url, rpc(1, 'ping'), { Origin: 'http://evil.example' }));
  });
});
