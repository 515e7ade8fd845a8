import { request as httpRequest } from 'node:http';
import { listenMcp, type RunningApp } from '../kit/apps.js';

/**
 * The absolute URLs the server hands out (the 2024-11-05 `endpoint` event, the Server Card's `remotes` and `name`)
 * are built from `Host` (and, with `trustProxy`, `X-Forwarded-Host` / `X-Forwarded-Proto`) unless `publicUrl` is
 * set. A forged value must not reach them: a host is only `host[:port]`, a scheme only http or https; anything else
 * is a 400, and `publicUrl` makes the headers irrelevant. Raw `node:http`, since fetch will not send a forged Host.
 */

const WELL_KNOWN = '/.well-known/mcp/server-card.json';

interface RawAnswer {
  readonly status: number;
  readonly text: string;
}

/** One GET with the given headers (Host included, as sent); the body is read up to the first SSE event at most. */
function rawGet(app: RunningApp, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const { hostname, port } = new URL(app.base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: 'GET', headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // An SSE stream stays open: its first event is enough.
        if (text.includes('\n\n')) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, text });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const FORGED_HOSTS = [
  'evil.example/x?',
  'evil.example:99999',
  'a b.example',
  'evil.example@good.example',
  'evil.example#x',
  '-evil.example',
];

describe('forged Host headers and the URLs handed out', () => {
  let app: RunningApp;
  let proxied: RunningApp;
  let fixed: RunningApp;
  beforeAll(async () => {
    app = await listenMcp({ name: 'host-check', version: '1.0.0' });
    proxied = await listenMcp({ name: 'host-check', version: '1.0.0', http: { trustProxy: true } });
    fixed = await listenMcp({ name: 'host-check', version: '1.0.0', http: { publicUrl: 'https://mcp.example.com', trustProxy: true } });
  });
  afterAll(async () => {
    await app?.close();
    await proxied?.close();
    await fixed?.close();
  });

  it.each(FORGED_HOSTS)('Host %j: the Server Card is a 400, not a card naming it', async (host) => {
    const answer = await rawGet(app, WELL_KNOWN, { Host: host });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toContain('evil');
  });

  it.each(FORGED_HOSTS)('Host %j: GET /sse is a 400, not an endpoint event naming it', async (host) => {
    const answer = await rawGet(app, '/sse', { Host: host, Accept: 'text/event-stream' });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toContain('event: endpoint');
  });

  it('a well-formed host (name, IPv4, [IPv6], with a port) is taken as sent', async () => {
    for (const host of ['mcp.example.com:8443', '127.0.0.1:8080', '[::1]:3000', 'Example.ORG']) {
      const card = await rawGet(app, WELL_KNOWN, { Host: host });
      expect(card.status).toBe(200);
      expect(JSON.parse(card.text).remotes[0].url).toBe(`http://${host}/mcp`);
    }
    const sse = await rawGet(app, '/sse', { Host: 'mcp.example.com:8443', Accept: 'text/event-stream' });
    expect(sse.text).toMatch(/event: endpoint\ndata: http:\/\/mcp\.example\.com:8443\/messages\?sessionId=/);
  });

  it.each([
    [{ 'X-Forwarded-Proto': 'javascript' }],
    [{ 'X-Forwarded-Proto': 'https:' }],
    [{ 'X-Forwarded-Host': 'evil.example/x?' }],
    [{ 'X-Forwarded-Host': 'evil.example:0x50' }],
  ])('with trustProxy, %j is a 400 on the card and on GET /sse', async (forwarded) => {
    const card = await rawGet(proxied, WELL_KNOWN, { Host: 'mcp.example.com', ...forwarded });
    expect(card.status).toBe(400);
    expect(card.text).not.toContain('javascript:');
    const sse = await rawGet(proxied, '/sse', { Host: 'mcp.example.com', Accept: 'text/event-stream', ...forwarded });
    expect(sse.status).toBe(400);
  });

  it('with trustProxy, a well-formed forwarded scheme (any case) and host are used', async () => {
    const card = await rawGet(proxied, WELL_KNOWN, {
      Host: 'inner:1',
      'X-Forwarded-Proto': 'HTTPS',
      'X-Forwarded-Host': 'proxy.example.org',
    });
    expect(card.status).toBe(200);
    expect(JSON.parse(card.text).remotes[0].url).toBe('https://proxy.example.org/mcp');
  });

  it('with publicUrl, whatever Host and X-Forwarded-* say, the configured URL is handed out', async () => {
    const card = await rawGet(fixed, WELL_KNOWN, { Host: 'evil.example/x?', 'X-Forwarded-Proto': 'javascript' });
    expect(card.status).toBe(200);
    expect(JSON.parse(card.text).remotes[0].url).toBe('https://mcp.example.com/mcp');
    const sse = await rawGet(fixed, '/sse', { Host: 'evil.example/x?', Accept: 'text/event-stream' });
    expect(sse.text).toContain('data: https://mcp.example.com/messages?sessionId=');
  });
});
