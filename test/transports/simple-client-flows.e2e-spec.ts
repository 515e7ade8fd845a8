import { type RunningApp, startFixtureApp } from '../kit/apps.js';
import { type HttpAnswer, post, sleep } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';

/**
 * Raw-HTTP replays of a simple HTTP/SSE client: exactly the headers and messages it sends in each of its transport
 * modes (`http`, `sse`, `auto` on one URL), with string ids, no session header and a bearer token the server does
 * not check.
 */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init-1',
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'simple-http-client', version: '3.2.1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const TOOLS_LIST = { jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: {} };
const TOOLS_CALL = {
  jsonrpc: '2.0',
  id: 'call-1',
  method: 'tools/call',
  params: { name: 'slow_count', arguments: { steps: 2, delayMs: 0 } },
};
const PING = { jsonrpc: '2.0', id: 'ping-1', method: 'ping' };

/** A POST as the simple client sends it: the Streamable HTTP headers and its API key as Bearer. */
function simpleClientPost(url: string, body: unknown): Promise<HttpAnswer> {
  return post(url, body, { Authorization: 'Bearer k' });
}

/** An HTTP+SSE (2024-11-05) connection as a simple SSE client opens it: GET, then the `endpoint` event. */
async function openSseSession(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ reader: SseReader; endpoint: string; controller: AbortController }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { Accept: 'text/event-stream', Authorization: 'Bearer k', ...headers },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = new SseReader(response);
  const first = await reader.nextEvent();
  expect(first?.event).toBe('endpoint');
  return { reader, endpoint: first!.data!, controller };
}

/** The next JSON-RPC message on an HTTP+SSE stream (`event: message`). */
async function nextMessage(reader: SseReader): Promise<any> {
  const event = await reader.nextEvent();
  expect(event).toBeDefined();
  expect(event!.event).toBe('message');
  return JSON.parse(event!.data!);
}

const ENDPOINT_PATTERN = (origin: string) =>
  new RegExp(`^${origin.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/messages\\?sessionId=[A-Za-z0-9_-]+$`);

describe('simple HTTP client flows (raw HTTP: string ids, Bearer key, 202 for notifications)', () => {
  let server: RunningApp;
  const open: AbortController[] = [];

  beforeAll(async () => {
    server = await startFixtureApp();
  });

  afterEach(() => {
    for (const controller of open.splice(0)) controller.abort();
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('transport: http (Streamable HTTP, no session id sent back)', () => {
    it('initialize 2024-11-05 → initialized 202 empty → tools/list → tools/call → ping', async () => {
      const init = await simpleClientPost(server.url, INITIALIZE);
      expect(init.status).toBe(200);
      expect(init.headers.get('content-type')).toMatch(/^application\/json/);
      expect(init.json).toEqual({
        jsonrpc: '2.0',
        id: 'init-1',
        result: {
          protocolVersion: '2024-11-05',
          capabilities: expect.objectContaining({ tools: expect.any(Object) }),
          serverInfo: { name: 'fixture', version: '1.0.0' },
        },
      });

      const initialized = await simpleClientPost(server.url, INITIALIZED);
      expect(initialized.status).toBe(202);
      expect(initialized.text).toBe('');

      const list = await simpleClientPost(server.url, TOOLS_LIST);
      expect(list.status).toBe(200);
      expect(list.headers.get('content-type')).toMatch(/^application\/json/);
      expect(list.json.id).toBe('list-1');
      expect(list.json.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
        'log_levels',
        'slow_count',
        'wait_for_abort',
      ]);

      // No progressToken and this client's http mode has no session: a tool that logs still answers, as SSE since
      // the client accepts it; the last event is the response.
      const call = await simpleClientPost(server.url, TOOLS_CALL);
      expect(call.status).toBe(200);
      const callMessage = call.json ?? lastSseMessage(call.text);
      expect(callMessage).toMatchObject({ jsonrpc: '2.0', id: 'call-1', result: { isError: false } });
      expect(JSON.parse(callMessage.result.content[0].text)).toEqual({ status: 'success', data: { counted: 2 } });

      const ping = await simpleClientPost(server.url, PING);
      expect(ping.status).toBe(200);
      expect(ping.json).toEqual({ jsonrpc: '2.0', id: 'ping-1', result: {} });
    });
  });

  describe('transport: sse (2024-11-05 HTTP+SSE on /sse)', () => {
    it('GET /sse → endpoint event with an absolute URL; each POST → 202; responses on the stream, in order', async () => {
      const { reader, endpoint, controller } = await openSseSession(`${server.base}/sse`);
      open.push(controller);
      expect(endpoint).toMatch(ENDPOINT_PATTERN(server.base));

      for (const [message, id] of [
        [INITIALIZE, 'init-1'],
        [INITIALIZED, undefined],
        [TOOLS_LIST, 'list-1'],
        [TOOLS_CALL, 'call-1'],
        [PING, 'ping-1'],
      ] as const) {
        const posted = await simpleClientPost(endpoint, message);
        expect(posted.status).toBe(202);
        expect(posted.text).toBe('');
        if (id === undefined) continue;
        let answer = await nextMessage(reader);
        if (id === 'call-1') {
          // slow_count logs each step (info) on the session's stream before its result.
          expect(answer).toMatchObject({ method: 'notifications/message', params: { level: 'info', data: { step: 1 } } });
          expect(await nextMessage(reader)).toMatchObject({
            method: 'notifications/message',
            params: { level: 'info', data: { step: 2 } },
          });
          answer = await nextMessage(reader);
          expect(answer.result.isError).toBe(false);
        }
        expect(answer).toMatchObject({ jsonrpc: '2.0', id });
        if (id === 'init-1') expect(answer.result.protocolVersion).toBe('2024-11-05');
        if (id === 'ping-1') expect(answer.result).toEqual({});
      }
    });

    it('posting without waiting for answers: every response arrives once, in the order posted', async () => {
      const { reader, endpoint, controller } = await openSseSession(`${server.base}/sse`);
      open.push(controller);
      await simpleClientPost(endpoint, INITIALIZE);
      await nextMessage(reader);
      await simpleClientPost(endpoint, INITIALIZED);
      const ids = ['a', 'b', 'c', 'd', 'e'];
      for (const id of ids)
        expect((await simpleClientPost(endpoint, { jsonrpc: '2.0', id, method: id === 'c' ? 'tools/list' : 'ping' })).status).toBe(202);
      const answers: string[] = [];
      while (answers.length < ids.length) answers.push((await nextMessage(reader)).id);
      expect(answers).toEqual(ids);
    });

    it('an unknown sessionId is 404; a missing one is 400', async () => {
      const unknown = await simpleClientPost(`${server.base}/messages?sessionId=nope`, PING);
      expect(unknown.status).toBe(404);
      expect(unknown.json).toMatchObject({ error: { code: -32001 } });
      const missing = await simpleClientPost(`${server.base}/messages`, PING);
      expect(missing.status).toBe(400);
    });

    it('the session ends with its stream: after the GET is dropped, its endpoint is 404', async () => {
      const { reader, endpoint, controller } = await openSseSession(`${server.base}/sse`);
      controller.abort();
      await reader.cancel();
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 404; attempt++) {
        status = (await simpleClientPost(endpoint, PING)).status;
        if (status !== 404) await sleep(20);
      }
      expect(status).toBe(404);
    });
  });

  describe('transport: auto (one URL, /mcp)', () => {
    it('POST initialize to /mcp works (Streamable HTTP)', async () => {
      const init = await simpleClientPost(server.url, INITIALIZE);
      expect(init.status).toBe(200);
      expect(init.json).toMatchObject({ id: 'init-1', result: { protocolVersion: '2024-11-05' } });
    });

    it('GET /mcp with Accept SSE and no session yields an endpoint event; the 2024-11-05 HTTP+SSE session then works', async () => {
      const { reader, endpoint, controller } = await openSseSession(server.url);
      open.push(controller);
      expect(endpoint).toMatch(ENDPOINT_PATTERN(server.base));
      expect((await simpleClientPost(endpoint, INITIALIZE)).status).toBe(202);
      expect(await nextMessage(reader)).toMatchObject({ id: 'init-1', result: { protocolVersion: '2024-11-05' } });
      expect((await simpleClientPost(endpoint, TOOLS_LIST)).status).toBe(202);
      expect((await nextMessage(reader)).result.tools).toHaveLength(3);
    });
  });

  describe('endpoint URL without publicUrl / trustProxy', () => {
    it('ignores X-Forwarded-* headers (they are not trusted by default)', async () => {
      const { endpoint, controller } = await openSseSession(`${server.base}/sse`, {
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'evil.example.net',
      });
      open.push(controller);
      expect(endpoint).toMatch(ENDPOINT_PATTERN(server.base));
    });
  });
});

describe('simple SSE client: endpoint URL with publicUrl', () => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startFixtureApp({ http: { publicUrl: 'https://mcp.example.com' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(['/sse', '/mcp'])('GET %s: the endpoint starts with the public URL (forwarded headers ignored)', async (path) => {
    const { endpoint, controller } = await openSseSession(`${server.base}${path}`, { 'X-Forwarded-Host': 'proxy.example.org' });
    controller.abort();
    expect(endpoint).toMatch(/^https:\/\/mcp\.example\.com\/messages\?sessionId=[A-Za-z0-9_-]+$/);
  });

  it('the session behind that public endpoint is served at the real address', async () => {
    const { reader, endpoint, controller } = await openSseSession(`${server.base}/sse`);
    try {
      const local = endpoint.replace('https://mcp.example.com', server.base);
      expect((await simpleClientPost(local, PING)).status).toBe(202);
      expect(await nextMessage(reader)).toEqual({ jsonrpc: '2.0', id: 'ping-1', result: {} });
    } finally {
      controller.abort();
    }
  });
});

describe('simple SSE client: endpoint URL with trustProxy', () => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startFixtureApp({ http: { trustProxy: true } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(['/sse', '/mcp'])('GET %s: the endpoint uses X-Forwarded-Proto and X-Forwarded-Host', async (path) => {
    const { endpoint, controller } = await openSseSession(`${server.base}${path}`, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'proxy.example.org',
    });
    controller.abort();
    expect(endpoint).toMatch(/^https:\/\/proxy\.example\.org\/messages\?sessionId=[A-Za-z0-9_-]+$/);
  });

  it('takes the first value of a forwarded list', async () => {
    const { endpoint, controller } = await openSseSession(`${server.base}/sse`, {
      'X-Forwarded-Proto': 'https, http',
      'X-Forwarded-Host': 'edge.example.org, inner.local',
    });
    controller.abort();
    expect(endpoint).toMatch(/^https:\/\/edge\.example\.org\/messages\?sessionId=/);
  });

  it('without forwarded headers it falls back to the request (Host)', async () => {
    const { endpoint, controller } = await openSseSession(`${server.base}/sse`);
    controller.abort();
    expect(endpoint).toMatch(ENDPOINT_PATTERN(server.base));
  });
});

/** The last JSON-RPC message of an SSE body. */
function lastSseMessage(text: string): any {
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((line) => line !== '');
  return JSON.parse(data[data.length - 1]);
}
