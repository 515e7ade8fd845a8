import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpClient, McpListChangedNotifier } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { EVERYTHING_MAIN } from '../kit/everything.js';
import type { RunningApp } from '../kit/apps.js';
import { ProbeTools, startFixture2026 } from '../rev-2026-07-28/support/fixture-app.js';
import { rejection } from './support/rejection.js';

/** What a test may read of a client's insides: the HTTP session (none in the 2026-07-28 era). */
const sessionOf = (client: McpClient) => (client as unknown as { transport?: { sessionId?: string } }).transport?.sessionId;

const ACCEPT = (content: Record<string, unknown>) => async () => ({ action: 'accept', content });

describe('McpClient and the 2026-07-28 era of this library (Streamable HTTP)', () => {
  let fixture: RunningApp;
  const clients: McpClient[] = [];
  const open = (options: Omit<ConstructorParameters<typeof McpClient>[0], 'url'> = {}) => {
    const client = new McpClient({ url: fixture.url, ...options });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    fixture = await startFixture2026();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => fixture.close());

  it('negotiates 2026-07-28 by default (server/discover, no session) and lists and calls tools with progress', async () => {
    const client = open();
    const server = await client.connect();
    expect(server).toMatchObject({
      protocolVersion: '2026-07-28',
      transport: 'streamable-http',
      serverInfo: { name: 'fixture-2026-07-28', version: '2.0.0' },
      instructions: 'Fixture of the 2026-07-28 e2e tests.',
    });
    expect(server.capabilities).toHaveProperty('tools');
    expect(sessionOf(client)).toBeUndefined();

    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['progress_and_logs', 'test_input_required_result_elicitation']));
    const progress: number[] = [];
    const result = await client.callTool('progress_and_logs', {}, { onProgress: (update) => progress.push(update.progress) });
    expect(progress).toEqual([1, 2]);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    expect(result).not.toHaveProperty('resultType');

    // Caching hints stay on the results that carry them; ping is a server/discover (the era has no ping).
    const read = await client.readResource('test://static-text');
    expect(read).toMatchObject({ contents: [{ uri: 'test://static-text' }], cacheScope: expect.any(String), ttlMs: expect.any(Number) });
    await expect(client.ping()).resolves.toBeUndefined();
    expect(sessionOf(client)).toBeUndefined();

    // A tool whose argument is marked x-mcp-header gets it mirrored in Mcp-Param-Region (Base64 when not ASCII).
    for (const region of ['us-west1', 'Zürich ']) {
      const mirrored = await client.callTool('test_custom_header_param', { region });
      expect(mirrored.content).toEqual([{ type: 'text', text: `Region: ${region}` }]);
    }
  });

  it('answers input_required through the call’s onRequest, else the client’s, and retries until complete', async () => {
    const asked: [string, Record<string, unknown> | undefined][] = [];
    const client = open({ capabilities: { elicitation: {} }, onRequest: ACCEPT({ name: 'Client' }) });

    const perCall = await client.callTool(
      'test_input_required_result_elicitation',
      {},
      { onRequest: async (method, params) => (asked.push([method, params]), { action: 'accept', content: { name: 'Ada' } }) },
    );
    expect(perCall.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(asked).toEqual([['elicitation/create', expect.objectContaining({ message: 'What is your name?' })]]);

    const clientLevel = await client.callTool('test_input_required_result_elicitation');
    expect(clientLevel.content).toEqual([{ type: 'text', text: 'Hello, Client!' }]);

    // Two rounds, each with its own requestState.
    const answers = [{ name: 'Ada' }, { color: 'blue' }];
    const twoRounds = await client.callTool(
      'test_input_required_result_multi_round',
      {},
      { onRequest: async () => ({ action: 'accept', content: answers.shift() }) },
    );
    expect(twoRounds.content).toEqual([{ type: 'text', text: 'Ada likes blue' }]);
    expect(answers).toEqual([]);

    // prompts/get takes the same rounds.
    const prompt = await client.getPrompt('test_input_required_result_prompt', {}, { onRequest: ACCEPT({ context: 'e2e' }) });
    expect(JSON.stringify(prompt.messages)).toContain('Use this context: e2e');
  });

  it('fails a call that needs input with INPUT_REQUIRED when nothing answers it, naming what was asked', async () => {
    const client = open({ capabilities: { elicitation: {} } });
    const error = await rejection(client.callTool('test_input_required_result_elicitation'));
    expect(error).toMatchObject({ code: 'INPUT_REQUIRED', retryable: false });
    expect(error.data).toMatchObject({ user_name: { method: 'elicitation/create' } });

    const declined = await rejection(client.callTool('test_input_required_result_elicitation', {}, { onRequest: async () => undefined }));
    expect(declined.code).toBe('INPUT_REQUIRED');
  });

  it('relays list changes through subscriptions/listen while a notification listener exists', async () => {
    const client = open();
    const seen: string[] = [];
    client.on('notification', (notification) => seen.push(notification.method));
    await client.connect();
    const notifier = fixture.app.get(McpListChangedNotifier);
    await eventually(
      () => {
        notifier.toolsChanged();
        return seen.includes('notifications/tools/list_changed');
      },
      5_000,
      'a tools list change on the listen',
    );
    expect(seen).not.toContain('notifications/subscriptions/acknowledged');
  });

  it('cancels a call by closing its response: the tool sees the abort', async () => {
    const client = open();
    const controller = new AbortController();
    const call = client.callTool('wait_for_abort', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect((await rejection(call)).code).toBe('CANCELLED');
    await eventually(() => fixture.app.get(ProbeTools).aborted.length > 0, 5_000, 'the tool to see the abort');
  });

  it("speaks initialize when pinned to 'legacy': a session, and the same onRequest answers elicitation/create", async () => {
    const client = open({ protocol: 'legacy', capabilities: { elicitation: {} }, onRequest: ACCEPT({ name: 'Legacy' }) });
    expect((await client.connect()).protocolVersion).toBe('2025-11-25');
    expect(sessionOf(client)).toEqual(expect.any(String));
    const result = await client.callTool('test_input_required_result_elicitation');
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Legacy!' }]);
  });
});

/** A 2025-only Streamable HTTP server: the official SDK 1.x, one session per initialize. */
async function startSdkServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((request, response) => {
    void (async () => {
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport!),
        });
        const server = new McpServer({ name: 'sdk-2025', version: '1.0.0' });
        server.registerTool('echo', { description: 'Echoes' }, () => ({ content: [{ type: 'text', text: 'echoed' }] }));
        await server.connect(transport);
      }
      await transport.handleRequest(request, response);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe('McpClient falling back from server/discover to initialize', () => {
  const clients: McpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it('a 2025-only HTTP server (the official SDK): the probe reads as legacy and initialize follows', async () => {
    const sdk = await startSdkServer();
    try {
      const client = new McpClient({ url: sdk.url });
      clients.push(client);
      expect(await client.connect()).toMatchObject({
        protocolVersion: '2025-11-25',
        transport: 'streamable-http',
        serverInfo: { name: 'sdk-2025' },
      });
      expect(sessionOf(client)).toEqual(expect.any(String));
      expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'echoed' }]);

      const pinned = new McpClient({ url: sdk.url, protocol: '2026-07-28', reconnect: false });
      clients.push(pinned);
      expect(await rejection(pinned.connect())).toMatchObject({ code: 'PROTOCOL', message: expect.stringContaining('2026-07-28') });
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await sdk.close();
    }
  });

  it('a 2025-only stdio server (server-everything): no answer to discover but -32601, so initialize on the same child', async () => {
    const client = new McpClient({ command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] });
    clients.push(client);
    expect(await client.connect()).toMatchObject({ protocolVersion: '2025-11-25', transport: 'stdio' });
    expect((await client.callTool('echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    await client.ping();

    const pinned = new McpClient({ command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], protocol: '2026-07-28', reconnect: false });
    clients.push(pinned);
    expect((await rejection(pinned.connect())).code).toBe('PROTOCOL');
  }, 30_000);
});
