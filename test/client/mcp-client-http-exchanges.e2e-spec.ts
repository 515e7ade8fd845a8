import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { McpClient } from '@nest-mcp/core';
import { startFixtureApp, type RunningApp } from '../kit/apps.js';
import { eventually } from '../kit/eventually.js';
import { waitForFixtureEvent, resetFixtureEvents } from '../fixtures/streaming-tools.module.js';
import { rejection } from './support/rejection.js';

/**
 * The HTTP exchanges of McpClient's Streamable HTTP transport (an undici pool per server) at their edges: bodies over
 * the bound however they are framed, a server that never answers, a client closed during a call, the sockets it keeps
 * and releases.
 */

const LIMIT = 1_000;
const OVERSIZED = 'x'.repeat(2 * LIMIT);

/** A bare MCP server whose `tools/call` does what the tool's name says; it counts the sockets it has open. */
class EdgeServer {
  readonly sockets = new Set<Socket>();
  connections = 0;
  /** The requests of `never`, held open; each resolves its `closed` when the client drops it. */
  readonly held: { closed: Promise<void> }[] = [];
  private readonly server: Server;
  url = '';

  constructor(keepAliveTimeoutMs?: number) {
    this.server = createServer((request, response) => void this.serve(request, response));
    if (keepAliveTimeoutMs !== undefined) this.server.keepAliveTimeout = keepAliveTimeoutMs;
    this.server.on('connection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}/mcp`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const message = JSON.parse(text) as { id?: number; method: string; params?: { name?: string; protocolVersion?: string } };
    if (message.id === undefined) return void response.writeHead(202).end();
    const answer = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
    if (message.method === 'initialize') {
      const body = answer({
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'edge', version: '1.0.0' },
      });
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    switch (message.params?.name) {
      case 'declared': // Content-Length over the bound
        return void response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(answer({ content: [{ type: 'text', text: OVERSIZED }] }));
      case 'chunked': {
        // No length: chunks that pass the bound, then a body that never ends.
        response.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 4; i++) response.write(OVERSIZED.slice(0, LIMIT / 2));
        return;
      }
      case 'event': // one SSE event over the bound
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return void response.write(`event: message\ndata: ${answer({ content: [{ type: 'text', text: OVERSIZED }] })}\n\n`);
      case 'never':
        this.held.push({ closed: new Promise((resolve) => response.on('close', () => resolve())) });
        return;
      default:
        return void response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(answer({ content: [{ type: 'text', text: 'ok' }] }));
    }
  }
}

describe('McpClient HTTP exchanges at their edges (a bare server)', () => {
  let server: EdgeServer;
  const clients: McpClient[] = [];
  const open = (options: Partial<ConstructorParameters<typeof McpClient>[0]> = {}) => {
    const client = new McpClient({ url: server.url, protocol: 'legacy', reconnect: false, maxMessageBytes: LIMIT, ...options });
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    server = await new EdgeServer().start();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await server.close();
  });

  it.each(['declared', 'chunked', 'event'])(
    'refuses an answer over maxMessageBytes (%s) with TOO_LARGE, and the next call goes through',
    async (name) => {
      const client = open();
      expect(await rejection(client.callTool(name))).toMatchObject({ code: 'TOO_LARGE' });
      expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'ok' }]);
    },
  );

  it('times out a call the server never answers (TIMEOUT) and drops its request', async () => {
    const client = open();
    await client.connect();
    const started = Date.now();
    expect(await rejection(client.callTool('never', {}, { timeoutMs: 300 }))).toMatchObject({ code: 'TIMEOUT', retryable: true });
    expect(Date.now() - started).toBeLessThan(3_000);
    await server.held[0].closed; // the server sees the exchange end: nothing waits on it any more
    expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('rejects a call in flight with CLOSED when the client closes, and leaves no socket open', async () => {
    const client = open();
    await client.connect();
    const call = rejection(client.callTool('never'));
    await eventually(() => server.held.length === 1, 5_000, 'the call reached the server');
    await client.close();
    expect(await call).toMatchObject({ code: 'CLOSED' });
    await server.held[0].closed;
    await eventually(() => server.sockets.size === 0, 5_000, 'every socket closed');
  });

  it('sends sequential calls over kept-alive sockets and closes them with the client', async () => {
    const client = open();
    for (let i = 0; i < 20; i++) await client.callTool('echo');
    // The pool may open a second socket while the first settles an answer, never one per call.
    expect(server.connections).toBeLessThanOrEqual(2);
    expect(server.sockets.size).toBe(server.connections);
    await client.close();
    await eventually(() => server.sockets.size === 0, 5_000, 'the socket closed');
  });

  it('goes through after the server closed the idle kept-alive socket', async () => {
    await server.close();
    server = await new EdgeServer(200).start();
    const client = open();
    await client.callTool('echo');
    await eventually(() => server.sockets.size === 0, 5_000, 'the server closed the idle sockets');
    const before = server.connections;
    expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.connections).toBeGreaterThan(before); // on a fresh socket
  });
});

describe('McpClient closed during a streamed call (this library)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startFixtureApp();
  });
  beforeEach(() => resetFixtureEvents());
  afterAll(async () => app.close());

  it.each(['auto', 'legacy'] as const)('protocol %s: the call rejects with CLOSED at once', async (protocol) => {
    const client = new McpClient({ url: app.url, protocol });
    let progressed!: () => void;
    const progress = new Promise<void>((resolve) => (progressed = resolve));
    const call = rejection(client.callTool('slow_count', { steps: 20, delayMs: 200 }, { onProgress: () => progressed() }));
    await progress; // its SSE answer is streaming
    const started = Date.now();
    await client.close();
    expect(await call).toMatchObject({ code: 'CLOSED' });
    expect(Date.now() - started).toBeLessThan(3_000);
    // 2026-07-28: closing the response is the cancellation, and the tool sees it.
    if (protocol === 'auto') await waitForFixtureEvent((event) => event.type === 'aborted');
  });
});
