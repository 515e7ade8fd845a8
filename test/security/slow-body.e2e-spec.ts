import { connect, type Socket } from 'node:net';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { CapturingLogger } from './fixtures/capturing-logger.js';

/**
 * A POST body is work the server does for a client before it knows who the client is. On both adapters: a request
 * without valid credentials is refused before its body is read, every body has a time bound
 * (`limits.bodyTimeoutMs`), and a client that aborts its upload costs no ERROR log entry. Fastify reads bodies
 * itself, before any Nest guard, and has no request timeout of its own: these held there only since the MCP POST
 * routes got an `onRequest` hook.
 */

const API_KEY = 'slow-body-key-0123456789';
const HEAD_LINES = (url: URL, extra: Record<string, string>): string =>
  [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    'Content-Length: 100000',
    ...Object.entries(extra).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');

/** Opens a raw connection, sends the head of a 100 000-byte POST and one byte of its body, and collects what comes back. */
function startSlowPost(
  app: RunningApp,
  headers: Record<string, string> = {},
): { socket: Socket; answer: Promise<{ text: string; ms: number }> } {
  const url = new URL(app.url);
  const socket = connect(Number(url.port), url.hostname);
  const started = Date.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  socket.write(HEAD_LINES(url, headers));
  socket.write('{');
  const answer = new Promise<{ text: string; ms: number }>((resolve) => {
    const done = () => resolve({ text, ms: Date.now() - started });
    socket.on('close', done);
    // A 401 may come while the connection stays open (keep-alive): the status line and a complete body suffice.
    socket.on('data', () => {
      if (/\r\n\r\n\{.*\}$/s.test(text)) done();
    });
  });
  return { socket, answer };
}

describe('slow and aborted POST bodies', () => {
  let guarded: RunningApp;
  let open: RunningApp;
  beforeAll(async () => {
    guarded = await listenMcp({ name: 'slow-body', version: '1.0.0', auth: { apiKeys: [{ key: API_KEY, tenant: 'acme' }] } });
    open = await listenMcp({ name: 'slow-body', version: '1.0.0', limits: { bodyTimeoutMs: 500 } });
  });
  afterAll(async () => {
    await guarded?.close();
    await open?.close();
  });

  it('a POST without credentials is answered 401 at once, before its body arrives', async () => {
    const { socket, answer } = startSlowPost(guarded);
    try {
      const { text, ms } = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 401 /);
      expect(text.toLowerCase()).toContain('www-authenticate:');
      expect(ms).toBeLessThan(5_000);
    } finally {
      socket.destroy();
    }
  });

  it('with valid credentials the body is read as usual (the early check lets it through)', async () => {
    const response = await fetch(guarded.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': API_KEY },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, result: {} });
  });

  it('a body slower than limits.bodyTimeoutMs is answered 408 and its connection closed', async () => {
    const { socket, answer } = startSlowPost(open);
    try {
      const { text, ms } = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(ms).toBeGreaterThanOrEqual(400);
      expect(ms).toBeLessThan(10_000);
    } finally {
      socket.destroy();
    }
  });

  it('50 aborted uploads write no ERROR entry and no stack', async () => {
    const logger = new CapturingLogger();
    const app = await listenMcp({ name: 'slow-body', version: '1.0.0' }, [], { logger });
    try {
      const logged = logger.since();
      for (let index = 0; index < 50; index++) {
        const { socket } = startSlowPost(app);
        await new Promise((resolve) => setTimeout(resolve, 10));
        socket.resetAndDestroy();
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const entries = logged();
      expect(entries.filter((entry) => entry.level === 'error' || entry.level === 'fatal')).toEqual([]);
      expect(entries.map((entry) => entry.text).join('\n')).not.toMatch(/(^|\n)\s+at\s/);
    } finally {
      await app.close();
    }
  });
});
