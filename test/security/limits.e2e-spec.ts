import { request as httpRequest } from 'node:http';
import { startSecApp } from './fixtures/sec-app.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { callTool, envelopeOf, type HttpAnswer, initializeRequest, openSession, post, rpc, send, sleep } from '../kit/http.js';
import { type OpenSse, openSse } from '../kit/sse.js';

/**
 * Bounds against hostile input and runaway tenants: body size, media type, JSON shape (depth, collection size),
 * batches, tool timeouts, per-tenant rate and concurrency limits, stream and session caps.
 */

const MIB = 1024 * 1024;

/** A tools/call of get_weather whose arguments carry `extra` as raw JSON text (never built as an object). */
function weatherCallWithRawExtra(id: number, extraJson: string): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Beijing","extra":${extraJson}}}}`;
}

/** Sends `chunks` with chunked transfer encoding (no Content-Length) and resolves with the status and body. */
function postChunked(url: string, chunks: Buffer[], headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', () => undefined); // the server may stop reading once the limit is passed
    let index = 0;
    const writeNext = () => {
      while (index < chunks.length) {
        const ok = req.write(chunks[index++]);
        if (!ok) return void req.once('drain', writeNext);
      }
      req.end();
    };
    writeNext();
  });
}

function expectJsonRpcError(answer: HttpAnswer, code: number): void {
  expect(answer.status).toBeLessThan(500);
  expect(Array.isArray(answer.json)).toBe(false);
  expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code } });
}

async function expectPingAnswers(url: string, headers: Record<string, string> = {}): Promise<void> {
  const answer = await post(url, rpc('alive', 'ping'), headers);
  expect(answer.status).toBe(200);
  expect(answer.json).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
}

describe('request limits (weather-server defaults)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startWeatherApp();
  });
  afterAll(() => app?.close());

  describe('body size and media type', () => {
    it('a body over 1 MiB (with Content-Length) → 413', async () => {
      const body = JSON.stringify(rpc(1, 'ping', { pad: 'x'.repeat(MIB + 10) }));
      const answer = await post(app.url, body);
      expect(answer.status).toBe(413);
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
      await expectPingAnswers(app.url);
    });

    it('a chunked body over 1 MiB (no Content-Length) → 413', async () => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const chunks = [
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'),
        ...Array.from({ length: 20 }, () => chunk),
        Buffer.from('"}}'),
      ];
      const answer = await postChunked(app.url, chunks, { 'Content-Type': 'application/json', Accept: 'application/json' });
      expect(answer.status).toBe(413);
      await expectPingAnswers(app.url);
    });

    it('a body just under 1 MiB is read', async () => {
      const answer = await post(app.url, JSON.stringify(rpc(1, 'ping', { pad: 'x'.repeat(MIB - 200) })));
      expect(answer.status).toBe(200);
    });

    it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x'], ['application/jsonp'], ['']])(
      'Content-Type "%s" → 415',
      async (contentType) => {
        const headers: Record<string, string> = { Accept: 'application/json, text/event-stream' };
        if (contentType !== '') headers['Content-Type'] = contentType;
        const answer = await send(app.url, { method: 'POST', headers, body: JSON.stringify(rpc(1, 'ping')) });
        expect(answer.status).toBe(415);
        expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
      },
    );

    it('Content-Type: application/json; charset=utf-8 is accepted', async () => {
      expect((await post(app.url, rpc(1, 'ping'), { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(200);
    });

    it('unparsable JSON → 400 with -32700', async () => {
      const answer = await post(app.url, '{"jsonrpc":"2.0",');
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    });
  });

  describe('JSON shape', () => {
    it('arguments nested 100 levels deep → -32600 (limits.maxJsonDepth 64)', async () => {
      const answer = await post(app.url, weatherCallWithRawExtra(3, `${'['.repeat(100)}${']'.repeat(100)}`));
      expectJsonRpcError(answer, -32600);
      expect(answer.json.id).toBe(3);
    });

    it('objects nested 100 levels deep → -32600', async () => {
      const answer = await post(app.url, weatherCallWithRawExtra(4, `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`));
      expectJsonRpcError(answer, -32600);
    });

    it('a moderately nested value (40 levels) is not refused by the depth limit', async () => {
      const answer = await post(app.url, weatherCallWithRawExtra(5, `${'['.repeat(40)}${']'.repeat(40)}`));
      expect(answer.status).toBe(200);
      expect(answer.json.error).toBeUndefined();
      expect(answer.json.result).toBeDefined();
    });

    it('100 000-deep nesting inside arguments → 400/-32700 or -32600, never 5xx; the server still answers ping', async () => {
      const answer = await post(app.url, weatherCallWithRawExtra(6, `${'['.repeat(100_000)}${']'.repeat(100_000)}`));
      expect(answer.status).toBeLessThan(500);
      expect([-32700, -32600]).toContain(answer.json?.error?.code);
      await expectPingAnswers(app.url);
    });

    it("'['.repeat(100000) as the whole body → 400 -32700, never 5xx; the server still answers ping", async () => {
      const answer = await post(app.url, '['.repeat(100_000));
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      await expectPingAnswers(app.url);
    });

    it('a closed 100 000-deep array as the whole body → a JSON-RPC error, never 5xx', async () => {
      const answer = await post(app.url, `${'['.repeat(100_000)}${']'.repeat(100_000)}`, { 'MCP-Protocol-Version': '2025-11-25' });
      expect(answer.status).toBeLessThan(500);
      expect([-32700, -32600]).toContain(answer.json?.error?.code);
      await expectPingAnswers(app.url);
    });

    it('100 000-deep objects → never 5xx', async () => {
      const answer = await post(app.url, weatherCallWithRawExtra(7, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`));
      expect(answer.status).toBeLessThan(500);
      expect([-32700, -32600]).toContain(answer.json?.error?.code);
      await expectPingAnswers(app.url);
    });

    it('an array of 20 000 numbers in arguments → -32600 (limits.maxJsonCollectionSize 10 000)', async () => {
      const answer = await post(app.url, weatherCallWithRawExtra(8, `[${Array.from({ length: 20_000 }, (_, i) => i).join(',')}]`));
      expectJsonRpcError(answer, -32600);
      expect(answer.json.id).toBe(8);
    });

    it('an object with 20 000 members in arguments → -32600', async () => {
      const members = Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',');
      expectJsonRpcError(await post(app.url, weatherCallWithRawExtra(9, `{${members}}`)), -32600);
    });
  });

  describe('batches', () => {
    const batch = [rpc(1, 'ping'), rpc(2, 'tools/list')];

    it('a JSON array without MCP-Protocol-Version and without a session is processed (the spec says to assume 2025-03-26)', async () => {
      const answer = await post(app.url, batch);
      expect(answer.status).toBe(200);
      expect(Array.isArray(answer.json)).toBe(true);
      expect((answer.json as unknown[]).length).toBe(batch.length);
    });

    it.each(['2025-06-18', '2025-11-25'])('a JSON array with MCP-Protocol-Version %s → -32600', async (version) => {
      expectJsonRpcError(await post(app.url, batch, { 'MCP-Protocol-Version': version }), -32600);
    });

    it('a JSON array inside a 2025-11-25 session (no header) → -32600', async () => {
      const sessionId = (await openSession(app.url)).sessionId;
      expectJsonRpcError(await post(app.url, batch, { 'Mcp-Session-Id': sessionId }), -32600);
    });

    it('with MCP-Protocol-Version: 2025-03-26 the batch is processed', async () => {
      const answer = await post(app.url, batch, { 'MCP-Protocol-Version': '2025-03-26' });
      expect(answer.status).toBe(200);
      expect(Array.isArray(answer.json)).toBe(true);
      expect(answer.json.map((reply: { id: number }) => reply.id).sort()).toEqual([1, 2]);
      expect(answer.json.find((reply: { id: number }) => reply.id === 1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('a 2025-03-26 batch containing initialize → -32600', async () => {
      expectJsonRpcError(
        await post(app.url, [initializeRequest(1, '2025-03-26'), rpc(2, 'ping')], { 'MCP-Protocol-Version': '2025-03-26' }),
        -32600,
      );
    });

    it('a 2025-03-26 batch of 20 000 messages breaks limits.maxJsonCollectionSize → -32600, not 20 000 dispatches', async () => {
      const body = `[${Array.from({ length: 20_000 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}`).join(',')}]`;
      expect(body.length).toBeLessThan(MIB);
      const answer = await post(app.url, body, { 'MCP-Protocol-Version': '2025-03-26' });
      expectJsonRpcError(answer, -32600);
    });
  });
});

describe('http.maxBodyBytes: 1000', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({ http: { maxBodyBytes: 1000 } });
  });
  afterAll(() => app?.close());

  it('1001 bytes → 413; 1000 bytes → served', async () => {
    const shell = JSON.stringify(rpc(1, 'ping', { pad: '' }));
    const at = (size: number) => JSON.stringify(rpc(1, 'ping', { pad: 'x'.repeat(size - shell.length) }));
    expect(Buffer.byteLength(at(1001))).toBe(1001);
    expect((await post(app.url, at(1001))).status).toBe(413);
    expect((await post(app.url, at(1000))).status).toBe(200);
  });

  it('multi-byte characters count as bytes, not characters', async () => {
    const body = JSON.stringify(rpc(1, 'ping', { pad: '北'.repeat(400) })); // 1200 bytes of UTF-8 in ~440 characters
    expect(body.length).toBeLessThan(1000);
    expect((await post(app.url, body)).status).toBe(413);
  });

  it('the limit also applies to POST /messages (2024-11-05 HTTP+SSE)', async () => {
    const stream = await openSse(`${app.base}/sse`, {});
    try {
      const endpoint = /^data:\s*(.+)$/m.exec(stream.firstEvent)![1].trim();
      expect((await post(endpoint, JSON.stringify(rpc(1, 'ping', { pad: 'x'.repeat(2000) })))).status).toBe(413);
    } finally {
      stream.close();
    }
  });
});

describe('tool timeouts', () => {
  it('tools.timeoutMs: 100 → a sleeping tool ends with a TIMEOUT envelope, retryable: true', async () => {
    const app = await startSecApp({ tools: { timeoutMs: 100 } });
    try {
      const started = Date.now();
      const answer = await post(app.url, callTool(1, 'sleep', { ms: 3000 }));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(answer.status).toBe(200);
      expect(answer.json.result.isError).toBe(true);
      expect(envelopeOf(answer)).toEqual({
        status: 'error',
        error: { code: 'TIMEOUT', retryable: true, message: expect.stringMatching(/\S/) },
      });
      await expectPingAnswers(app.url);
    } finally {
      await app.close();
    }
  });

  it('@McpTool({ timeoutMs: 100 }) → TIMEOUT for that tool while others keep the module default', async () => {
    const app = await startSecApp();
    try {
      const started = Date.now();
      const timedOut = await post(app.url, callTool(1, 'sleep_short_timeout', { ms: 3000 }));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(envelopeOf(timedOut)).toMatchObject({ status: 'error', error: { code: 'TIMEOUT', retryable: true } });
      const fine = await post(app.url, callTool(2, 'sleep', { ms: 300 }));
      expect(envelopeOf(fine)).toEqual({ status: 'success', data: { slept: 300 } });
    } finally {
      await app.close();
    }
  });
});

describe('per-tenant rate limit (limits.rateLimit: { limit: 3, windowMs: 60000 })', () => {
  const A = 'rate-suite-tenant-a-key-000000001';
  const B = 'rate-suite-tenant-b-key-000000002';
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      limits: { rateLimit: { limit: 3, windowMs: 60_000 } },
      auth: {
        apiKeys: [
          { key: A, tenant: 'tenant-a' },
          { key: B, tenant: 'tenant-b' },
        ],
      },
    });
  });
  afterAll(() => app?.close());

  it('the 4th call within the window → RATE_LIMITED, retryable, with retry_after_ms > 0; another tenant is unaffected', async () => {
    for (let i = 1; i <= 3; i++) {
      const ok = await post(app.url, callTool(i, 'whoami'), { 'X-API-Key': A });
      expect(envelopeOf(ok).status).toBe('success');
    }
    const fourth = await post(app.url, callTool(4, 'whoami'), { 'X-API-Key': A });
    expect(fourth.status).toBe(200);
    expect(fourth.json.result.isError).toBe(true);
    const envelope = envelopeOf(fourth);
    expect(envelope).toEqual({
      status: 'error',
      error: { code: 'RATE_LIMITED', retryable: true, message: expect.stringMatching(/\S/), retry_after_ms: expect.any(Number) },
    });
    expect(envelope.error.retry_after_ms).toBeGreaterThan(0);
    expect(envelope.error.retry_after_ms).toBeLessThanOrEqual(60_000);

    expect(envelopeOf(await post(app.url, callTool(5, 'whoami'), { 'X-API-Key': B })).status).toBe('success');
  });

  it('a new session does not reset the tenant window', async () => {
    const sessionId = (await openSession(app.url, { headers: { 'X-API-Key': A } })).sessionId;
    const answer = await post(app.url, callTool(6, 'whoami'), { 'X-API-Key': A, 'Mcp-Session-Id': sessionId });
    expect(envelopeOf(answer).error?.code).toBe('RATE_LIMITED');
  });
});

describe('per-tenant concurrency cap (limits.maxConcurrentCallsPerTenant: 1)', () => {
  const A = 'conc-suite-tenant-a-key-000000001';
  const B = 'conc-suite-tenant-b-key-000000002';
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      limits: { maxConcurrentCallsPerTenant: 1 },
      auth: {
        apiKeys: [
          { key: A, tenant: 'tenant-a' },
          { key: B, tenant: 'tenant-b' },
        ],
      },
    });
  });
  afterAll(() => app?.close());

  it('two concurrent slow calls of one tenant → exactly one RATE_LIMITED; another tenant runs meanwhile', async () => {
    const [first, second, other] = await Promise.all([
      post(app.url, callTool(1, 'sleep', { ms: 600 }), { 'X-API-Key': A }),
      sleep(100).then(() => post(app.url, callTool(2, 'sleep', { ms: 600 }), { 'X-API-Key': A })),
      sleep(100).then(() => post(app.url, callTool(3, 'sleep', { ms: 100 }), { 'X-API-Key': B })),
    ]);
    const codes = [envelopeOf(first), envelopeOf(second)]
      .map((envelope) => (envelope.status === 'success' ? 'OK' : envelope.error.code))
      .sort();
    expect(codes).toEqual(['OK', 'RATE_LIMITED']);
    const limited = [envelopeOf(first), envelopeOf(second)].find((envelope) => envelope.status === 'error');
    expect(limited.error).toMatchObject({ retryable: true, retry_after_ms: expect.any(Number) });
    expect(limited.error.retry_after_ms).toBeGreaterThan(0);
    expect(envelopeOf(other)).toEqual({ status: 'success', data: { slept: 100 } });
  });

  it('the slot is released afterwards (also after a timeout-free failure)', async () => {
    expect(envelopeOf(await post(app.url, callTool(4, 'explode'), { 'X-API-Key': A })).error.code).toBe('INTERNAL_ERROR');
    expect(envelopeOf(await post(app.url, callTool(5, 'whoami'), { 'X-API-Key': A })).status).toBe('success');
  });
});

describe('per-tenant stream cap (limits.maxStreamsPerTenant: 1)', () => {
  const A = 'stream-suite-tenant-a-key-0000001';
  const B = 'stream-suite-tenant-b-key-0000002';
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      limits: { maxStreamsPerTenant: 1 },
      auth: {
        apiKeys: [
          { key: A, tenant: 'tenant-a' },
          { key: B, tenant: 'tenant-b' },
        ],
      },
    });
  });
  afterAll(() => app?.close());

  it('a second SSE stream (GET /sse) of the tenant → 429; another tenant still gets one; closing frees the slot', async () => {
    const first = await openSse(`${app.base}/sse`, { 'X-API-Key': A });
    let reopened: OpenSse | undefined;
    try {
      expect(first.status).toBe(200);
      expect(first.contentType).toMatch(/^text\/event-stream/);

      const second = await openSse(`${app.base}/sse`, { 'X-API-Key': A });
      second.close();
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.parse(second.firstEvent)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });

      // A GET stream of a Streamable HTTP session counts against the same cap.
      const sessionId = (await openSession(app.url, { headers: { 'X-API-Key': A } })).sessionId;
      const standalone = await openSse(app.url, { 'X-API-Key': A, 'Mcp-Session-Id': sessionId });
      standalone.close();
      expect(standalone.status).toBe(429);

      const otherTenant = await openSse(`${app.base}/sse`, { 'X-API-Key': B });
      otherTenant.close();
      expect(otherTenant.status).toBe(200);

      first.close();
      for (let attempt = 0; attempt < 40; attempt++) {
        reopened = await openSse(`${app.base}/sse`, { 'X-API-Key': A });
        if (reopened.status === 200) break;
        reopened.close();
        await sleep(50);
      }
      expect(reopened!.status).toBe(200);
    } finally {
      first.close();
      reopened?.close();
    }
  });
});

describe('per-tenant session cap (limits.maxSessionsPerTenant: 1)', () => {
  const A = 'session-suite-tenant-a-key-000001';
  const B = 'session-suite-tenant-b-key-000002';
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      limits: { maxSessionsPerTenant: 1 },
      auth: {
        apiKeys: [
          { key: A, tenant: 'tenant-a' },
          { key: B, tenant: 'tenant-b' },
        ],
      },
    });
  });
  afterAll(() => app?.close());

  it('a second initialize of the tenant → 429 without a session id; another tenant is unaffected; DELETE frees the slot', async () => {
    const first = await post(app.url, initializeRequest(1), { 'X-API-Key': A });
    expect(first.status).toBe(200);
    const sessionId = first.headers.get('mcp-session-id')!;
    expect(sessionId).toBeTruthy();

    const second = await post(app.url, initializeRequest(2), { 'X-API-Key': A });
    expect(second.status).toBe(429);
    expect(second.headers.get('mcp-session-id')).toBeNull();
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(second.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    expect(second.json.result).toBeUndefined();

    expect((await post(app.url, initializeRequest(3), { 'X-API-Key': B })).status).toBe(200);

    // The first session still works.
    expect((await post(app.url, rpc(4, 'ping'), { 'X-API-Key': A, 'Mcp-Session-Id': sessionId })).status).toBe(200);

    expect((await send(app.url, { method: 'DELETE', headers: { 'X-API-Key': A, 'Mcp-Session-Id': sessionId } })).status).toBe(200);
    expect((await post(app.url, initializeRequest(5), { 'X-API-Key': A })).status).toBe(200);
  });

  it('a 2024-11-05 HTTP+SSE stream is a session too: refused with 429 when the tenant is at its cap', async () => {
    const stream = await openSse(`${app.base}/sse`, { 'X-API-Key': A });
    stream.close();
    expect(stream.status).toBe(429);
  });
});
