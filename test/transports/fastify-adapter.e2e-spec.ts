import { Body, Controller, Module, Post } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpModule } from '@nest-mcp/core';
import { ADAPTER_API_KEY, AdapterTools, adapterFixtureOptions } from '../fixtures/http-adapter-tools.js';
import { listen, listenMcp, type HttpAdapterName, type RunningApp } from '../kit/apps.js';
import { envelopeOf, initializeRequest, openSession, post, send, sessionHeaders } from '../kit/http.js';
import { openSse } from '../kit/sse.js';

/**
 * Every MCP endpoint on both Nest HTTP adapters, with the same answers: the official SDK client over Streamable HTTP
 * and HTTP+SSE (2024-11-05), the job poll URL, and raw HTTP for the refusals (413, 415, -32700, 406, 401) and DELETE.
 * Nest's own body parser stays on (Fastify always parses), and an application route beside MCP keeps its own JSON.
 */

const KEY = { 'X-API-Key': ADAPTER_API_KEY };
const MAX_BODY_BYTES = 8 * 1024;

/** An application's own JSON route beside the MCP server: it must keep Nest's parsing and errors. */
@Controller('app')
class AppJsonController {
  @Post('echo')
  echo(@Body() body: unknown): { got: unknown } {
    return { got: body };
  }
}

async function start(adapter: HttpAdapterName): Promise<RunningApp> {
  @Module({
    imports: [
      McpModule.forRoot(
        adapterFixtureOptions('http://127.0.0.1/mcp', { http: { maxBodyBytes: MAX_BODY_BYTES, streams: { keepAliveMs: 100 } } } as never),
      ),
    ],
    providers: [AdapterTools],
    controllers: [AppJsonController],
  })
  class AdapterSuiteModule {}
  return listen([AdapterSuiteModule], { adapter, bodyParser: true });
}

describe.each<HttpAdapterName>(['express', 'fastify'])('MCP over HTTP on the %s adapter', (adapter) => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await start(adapter);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('runs on that adapter', () => {
    expect(server.app.getHttpAdapter().getType()).toBe(adapter);
  });

  it('serves the SDK client over Streamable HTTP: initialize, tools/list, tools/call, and a job whose poll_url answers', async () => {
    const client = new Client({ name: `${adapter}-e2e`, version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: KEY } });
    await client.connect(transport);
    try {
      expect(transport.sessionId).toBeTruthy();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'report']));
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'héllo' } });
      expect(envelopeOf(echoed as never)).toMatchObject({ status: 'success', data: { echoed: 'héllo' } });

      const pending = envelopeOf((await client.callTool({ name: 'report', arguments: { text: 'Oslo' } })) as never);
      expect(pending).toMatchObject({ status: 'pending', data: { poll_url: expect.stringMatching(/^\/mcp\/jobs\//) } });
      const poll = await send(`${server.base}${pending.data.poll_url}`, { method: 'GET', headers: KEY });
      expect(poll.status).toBe(200);
      expect(poll.headers.get('cache-control')).toBe('no-store');
      expect(poll.json).toMatchObject({ status: expect.stringMatching(/^(pending|success)$/) });
    } finally {
      await client.close();
    }
  });

  it('serves the SDK SSE client (2024-11-05): the endpoint event, tools/list and tools/call', async () => {
    const client = new Client({ name: `${adapter}-sse-e2e`, version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(`${server.base}/sse`), { requestInit: { headers: KEY } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo');
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'over sse' } });
      expect(envelopeOf(echoed as never)).toMatchObject({ status: 'success', data: { echoed: 'over sse' } });
    } finally {
      await client.close();
    }
  });

  it('answers a body over maxBodyBytes with 413 and a JSON-RPC error', async () => {
    const answer = await post(server.url, { ...initializeRequest(), padding: 'x'.repeat(MAX_BODY_BYTES) }, KEY);
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  });

  it("answers a body over the adapter's own parser limit (Fastify's bodyLimit, express's body-parser) the same way", async () => {
    const answer = await post(server.url, { ...initializeRequest(), padding: 'x'.repeat(2 * 1024 * 1024) }, KEY);
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  });

  it('answers an empty JSON body with 400 and -32700', async () => {
    const answer = await post(server.url, '', KEY);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it.each([
    ['text/plain', 'hello'],
    ['application/xml', '<rpc/>'],
  ])('answers Content-Type %s with 415 and a JSON-RPC error', async (contentType, body) => {
    const answer = await post(server.url, body, { ...KEY, 'Content-Type': contentType });
    expect(answer.status).toBe(415);
    expect(answer.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { message: expect.stringMatching(/Content-Type: application\/json/) },
    });
  });

  it('answers malformed JSON with 400 and -32700, on /mcp and on the 2024-11-05 messages URL', async () => {
    const onMcp = await post(server.url, '{"jsonrpc":', KEY);
    expect(onMcp.status).toBe(400);
    expect(onMcp.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    const onMessages = await post(`${server.base}/messages?sessionId=unknown`, '{"jsonrpc":', KEY);
    expect(onMessages.status).toBe(400);
    expect(onMessages.json).toMatchObject({ error: { code: -32700 } });
  });

  it('answers an Accept it cannot serve with 406', async () => {
    const answer = await post(server.url, initializeRequest(), { ...KEY, Accept: 'text/html' });
    expect(answer.status).toBe(406);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/Not Acceptable/) } });
  });

  it('ends a session with DELETE (200), after which it is unknown (404)', async () => {
    const { sessionId } = await openSession(server.url, { headers: KEY });
    const deleted = await send(server.url, {
      method: 'DELETE',
      headers: { ...KEY, ...sessionHeaders(sessionId) } as Record<string, string>,
    });
    expect(deleted.status).toBe(200);
    const again = await send(server.url, { method: 'DELETE', headers: { ...KEY, ...sessionHeaders(sessionId) } as Record<string, string> });
    expect(again.status).toBe(404);
  });

  it('refuses a request without credentials with 401, WWW-Authenticate naming resource_metadata that resolves', async () => {
    const answer = await post(server.url, initializeRequest());
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { data: { status: 'error', error: { code: 'UNAUTHORIZED' } } } });
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(answer.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe('http://127.0.0.1/.well-known/oauth-protected-resource/mcp');
    const document = await send(`${server.base}${new URL(metadataUrl!).pathname}`, { method: 'GET' });
    expect(document.status).toBe(200);
    expect(document.json).toMatchObject({ resource: 'http://127.0.0.1/mcp', authorization_servers: ['https://auth.example.com'] });
  });

  it('keeps a session GET stream alive with comments', async () => {
    const { sessionId } = await openSession(server.url, { headers: KEY });
    const stream = await openSse(server.url, { ...KEY, ...(sessionHeaders(sessionId) as Record<string, string>) });
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      let item = await stream.reader!.next();
      while (item && !(item.kind === 'comment' && item.comment === 'keepalive')) item = await stream.reader!.next();
      expect(item).toMatchObject({ kind: 'comment', comment: 'keepalive' });
    } finally {
      stream.close();
    }
  });

  it("warns at boot, on Fastify only, when Fastify's bodyLimit is below maxBodyBytes (Fastify would refuse first)", async () => {
    const warnings: string[] = [];
    const logger = { log() {}, error() {}, warn: (message: unknown) => void warnings.push(String(message)) };
    const big = await listenMcp(
      { ...adapterFixtureOptions('http://127.0.0.1/mcp'), http: { maxBodyBytes: 4 * 1024 * 1024 } },
      [AdapterTools],
      {
        adapter,
        logger,
      },
    );
    await big.close();
    const bodyLimitWarnings = warnings.filter((warning) => warning.includes('bodyLimit'));
    if (adapter === 'fastify') expect(bodyLimitWarnings).toEqual([expect.stringContaining('new FastifyAdapter({ bodyLimit: 4194304 })')]);
    else expect(bodyLimitWarnings).toEqual([]);
  });

  it("leaves the application's own JSON routes to Nest: parsed bodies, Nest's own 400 for bad JSON", async () => {
    const ok = await post(`${server.base}/app/echo`, { a: 1 });
    expect(ok.status).toBe(201);
    expect(ok.json).toEqual({ got: { a: 1 } });
    const bad = await post(`${server.base}/app/echo`, '{"a":');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ statusCode: 400 });
    expect(bad.json).not.toHaveProperty('jsonrpc');
  });
});
