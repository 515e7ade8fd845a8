import { Test } from '@nestjs/testing';
import { McpClient, McpClientModule } from '@nest-mcp/core';
import { startFixtureApp, type RunningApp } from '../kit/apps.js';
import { ensureBuilt, REPO_ROOT, WEATHER_MAIN } from '../kit/build.js';
import { eventually } from '../kit/eventually.js';
import { EVERYTHING_LONG_TOOL, EVERYTHING_MAIN } from '../kit/everything.js';
import { freePort } from '../kit/redis-server.harness.js';
import { resetFixtureEvents, waitForFixtureEvent } from '../fixtures/streaming-tools.module.js';
import { rejection } from './support/rejection.js';

/** What a test may read of a client's insides: the stdio child, the HTTP session. */
interface ClientInsides {
  transport?: { child?: { pid: number; kill(signal: string): void }; sessionId?: string };
}

const insides = (client: McpClient) => client as unknown as ClientInsides;

describe('McpClient against this library over HTTP', () => {
  let app: RunningApp;
  const clients: McpClient[] = [];
  const open = (options: ConstructorParameters<typeof McpClient>[0]) => {
    const client = new McpClient(options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    app = await startFixtureApp();
  });
  beforeEach(() => resetFixtureEvents());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => app.close());

  it.each([
    ['auto', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ] as const)('protocol %s negotiates %s over Streamable HTTP, lists the tools and calls one with progress', async (protocol, revision) => {
    const client = open({ url: app.url, protocol });
    const server = await client.connect();
    expect(server).toMatchObject({ protocolVersion: revision, transport: 'streamable-http', serverInfo: { name: 'fixture' } });
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['slow_count', 'wait_for_abort']));

    const progress: number[] = [];
    const result = await client.callTool(
      'slow_count',
      { steps: 3, delayMs: 20 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ status: 'success', data: { counted: 3 } });
  });

  it('cancels a call through its AbortSignal: the tool sees the abort and the call rejects with CANCELLED', async () => {
    const client = open({ url: app.url });
    const controller = new AbortController();
    const call = client.callTool(
      'slow_count',
      { steps: 20, delayMs: 200 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    const error = await rejection(call);
    expect(error.code).toBe('CANCELLED');
    await waitForFixtureEvent((event) => event.type === 'aborted');
    // The session still serves.
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it('bounds a call in time (TIMEOUT, the server is told to stop) and a message in size (TOO_LARGE)', async () => {
    const client = open({ url: app.url });
    const error = await rejection(client.callTool('slow_count', { steps: 5, delayMs: 500 }, { timeoutMs: 300 }));
    expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true });
    await waitForFixtureEvent((event) => event.type === 'aborted');

    const small = open({ url: app.url, maxMessageBytes: 300 });
    expect((await rejection(small.listTools())).code).toBe('TOO_LARGE');
  });

  it('initializes again when the server forgets its session, and the call goes through', async () => {
    const client = open({ url: app.url, protocol: 'legacy' });
    await client.ping();
    const first = insides(client).transport!.sessionId!;
    const ended = await fetch(app.url, { method: 'DELETE', headers: { 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' } });
    expect(ended.status).toBeLessThan(300);
    const result = await client.callTool('slow_count', { steps: 1, delayMs: 0 });
    expect(result.structuredContent).toEqual({ status: 'success', data: { counted: 1 } });
    expect(insides(client).transport!.sessionId).not.toBe(first);
  });

  it('falls back to the 2024-11-05 HTTP+SSE transport when the URL refuses the initialize POST', async () => {
    const client = open({ url: `${app.base}/sse` });
    const server = await client.connect();
    expect(server.transport).toBe('http-sse');
    const progress: number[] = [];
    const result = await client.callTool(
      'slow_count',
      { steps: 2, delayMs: 10 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2]);
    expect(result.structuredContent).toEqual({ status: 'success', data: { counted: 2 } });
  });

  it('is injected by McpClientModule.registerAsync() and closed with the app', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpClientModule.registerAsync({ useFactory: async () => ({ url: app.url, clientInfo: { name: 'injected', version: '2.0.0' } }) }),
      ],
    }).compile();
    const nest = await moduleRef.init();
    const client = nest.get(McpClient);
    expect((await client.listTools()).map((tool) => tool.name)).toContain('slow_count');
    await nest.close();
    expect(client.state).toBe('closed');
  });

  it('answers UNAVAILABLE (retryable) at once when nothing listens', async () => {
    const port = await freePort();
    const client = open({ url: `http://127.0.0.1:${port}/mcp`, reconnect: false });
    const started = Date.now();
    const error = await rejection(client.listTools());
    expect(error).toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(client.state).toBe('disconnected');
  });
});

describe('McpClient spawning the built weather server (stdio)', () => {
  let client: McpClient;
  beforeAll(async () => {
    await ensureBuilt();
  }, 180_000);
  afterEach(async () => client?.close());

  it('lists and calls its tools, and respawns the child after it crashed', async () => {
    client = new McpClient({
      command: process.execPath,
      args: [WEATHER_MAIN, '--stdio'],
      cwd: REPO_ROOT,
      reconnect: { initialDelayMs: 100 },
    });
    // The sample serves both eras on stdio: server/discover answers, so the client speaks 2026-07-28.
    expect(await client.connect()).toMatchObject({
      protocolVersion: '2026-07-28',
      transport: 'stdio',
      serverInfo: { name: 'weather-server' },
    });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(expect.arrayContaining(['get_weather', 'get_forecast']));
    const result = await client.callTool('get_weather', { city: '北京' });
    expect(result.structuredContent).toMatchObject({ status: 'success', data: { city: { name: 'Beijing' } } });

    const crashed = insides(client).transport!.child!;
    crashed.kill('SIGKILL');
    await eventually(
      () => client.state === 'connected' && insides(client).transport?.child?.pid !== crashed.pid,
      15_000,
      'a respawned child',
    );
    const again = await client.callTool('get_weather', { city: 'Paris' });
    expect(again.structuredContent).toMatchObject({ status: 'success' });
  }, 60_000);
});

describe('McpClient against the reference server (server-everything over stdio)', () => {
  let client: McpClient;
  beforeAll(async () => {
    client = new McpClient({ command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] });
    await client.connect();
  }, 30_000);
  afterAll(async () => client.close());

  it('negotiates the newest revision both speak (server/discover is refused: initialize) and lists its tools (all pages)', async () => {
    expect(client.server?.protocolVersion).toBe('2025-11-25');
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', EVERYTHING_LONG_TOOL]));
    const echo = await client.callTool('echo', { message: 'hi' });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
  });

  it('relays the progress of its long-running tool', async () => {
    const progress: { progress: number; total?: number }[] = [];
    const result = await client.callTool(
      EVERYTHING_LONG_TOOL,
      { duration: 0.3, steps: 3 },
      { onProgress: (update) => progress.push(update) },
    );
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    expect(JSON.stringify(result.content)).toContain('Long running operation completed');
  });

  it('cancels its long-running tool: the call rejects at once and the server keeps serving', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = client.callTool(
      EVERYTHING_LONG_TOOL,
      { duration: 20, steps: 20 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    expect((await rejection(call)).code).toBe('CANCELLED');
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it('lists and gets prompts, lists and reads resources and templates', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('simple-prompt');
    const prompt = await client.getPrompt('simple-prompt');
    expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });

    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource(resources[0].uri);
    expect(read.contents[0]).toMatchObject({ uri: resources[0].uri });
    expect((await client.listResourceTemplates()).length).toBeGreaterThan(0);

    const unknown = await rejection(client.getPrompt('no-such-prompt'));
    expect(unknown.code).toBe('RPC');
  });
});
