import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { PassThrough } from 'node:stream';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpModule, serveMcpOverStdio } from '@nest-mcp/core';
import { REV_2026_07_28_FIXTURES } from '../../apps/conformance-server/src/rev-2026-07-28/rev-2026-07-28.fixtures.js';
import { FixtureResources } from '../../apps/conformance-server/src/resources/fixture.resources.js';
import { envelope } from './support/requests.js';
import { ProbeTools, REQUEST_STATE_SECRET } from './support/fixture-app.js';
import { expectWireValid } from './support/wire-schema.js';
import { ensureBuilt, REPO_ROOT, WEATHER_MAIN } from '../kit/build.js';
import { initializeParams, notification, rpc } from '../kit/http.js';
import { StdioServerProcess } from '../kit/stdio.js';

const SUB_ID = 'io.modelcontextprotocol/subscriptionId';

/** One in-process stdio connection to a fixture app: lines in, parsed messages out. */
class StdioConnection {
  readonly messages: any[] = [];
  private readonly input = new PassThrough();
  private served?: Promise<void>;
  private probe?: ProbeTools;

  async start(): Promise<this> {
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'stdio-fixture',
          version: '1.0.0',
          requestState: { secret: REQUEST_STATE_SECRET },
          lists: { listChanged: { tools: true } },
        }),
      ],
      providers: [...REV_2026_07_28_FIXTURES, FixtureResources, ProbeTools],
    })
    class StdioFixtureModule {}
    const moduleRef = await Test.createTestingModule({ imports: [StdioFixtureModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    this.probe = app.get(ProbeTools);
    this.served = serveMcpOverStdio(app, { input: this.input, write: (line) => this.messages.push(JSON.parse(line)) });
    return this;
  }

  get probes(): ProbeTools {
    return this.probe!;
  }

  send(message: unknown): void {
    this.input.write(`${JSON.stringify(message)}\n`);
  }

  /** The response to `id` (waiting for it). */
  async response(id: string | number, timeoutMs = 5_000): Promise<any> {
    return this.waitFor(
      () => this.messages.find((message) => message.id === id && ('result' in message || 'error' in message)),
      timeoutMs,
      `response ${id}`,
    );
  }

  async waitFor<T>(found: () => T | undefined, timeoutMs = 5_000, what = 'message'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms: ${JSON.stringify(this.messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    this.input.end();
    await this.served;
  }
}

const rev2026 = (
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
) => rpc(id, method, { ...params, _meta: envelope(capabilities, meta) });

describe('2026-07-28 over stdio: one process, the era chosen by the first message', () => {
  const connections: StdioConnection[] = [];
  const open = async () => {
    const connection = await new StdioConnection().start();
    connections.push(connection);
    return connection;
  };

  afterEach(async () => {
    for (const connection of connections.splice(0)) await connection.close();
  });

  it('answers a server/discover probe without pinning: a claim-less initialize then runs the 2025-era handshake', async () => {
    const stdio = await open();
    stdio.send(rev2026('probe', 'server/discover'));
    const discover = await stdio.response('probe');
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true } },
    });
    expectWireValid([discover], 'server/discover');

    stdio.send(rpc(1, 'initialize', initializeParams('2025-11-25')));
    expect((await stdio.response(1)).result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'stdio-fixture' } });
    stdio.send(notification('notifications/initialized'));
    stdio.send(rpc(2, 'ping'));
    expect((await stdio.response(2)).result).toEqual({});
    // Pinned to 2025-11-25: a later claim is served as 2025 traffic (no resultType).
    stdio.send(rev2026(3, 'tools/list'));
    const list = await stdio.response(3);
    expect(list.result.tools.length).toBeGreaterThan(0);
    expect(list.result.resultType).toBeUndefined();
  });

  it('pins the 2026-07-28 era on a valid claim: a claim-less initialize then gets -32022 naming the supported versions', async () => {
    const stdio = await open();
    stdio.send(rev2026(1, 'tools/list'));
    const list = await stdio.response(1);
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expectWireValid([list], 'tools/list');

    stdio.send(rpc(2, 'initialize', initializeParams('2025-11-25')));
    expect((await stdio.response(2)).error).toEqual({
      code: -32022,
      message: expect.any(String),
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
    stdio.send(rpc(3, 'tools/list'));
    expect((await stdio.response(3)).error).toMatchObject({ code: -32602, data: { envelope: { missing: ['_meta'] } } });
    stdio.send(rev2026(4, 'ping'));
    expect((await stdio.response(4)).error.code).toBe(-32601);
  });

  it('refuses an unsupported claim without pinning', async () => {
    const stdio = await open();
    stdio.send(rpc(1, 'tools/list', { _meta: envelope({}, { 'io.modelcontextprotocol/protocolVersion': '2030-01-01' }) }));
    expect((await stdio.response(1)).error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2030-01-01' } });
    stdio.send(rpc(2, 'initialize', initializeParams('2025-06-18')));
    expect((await stdio.response(2)).result.protocolVersion).toBe('2025-06-18');
  });

  it('runs multi round-trip requests, never writing a request to stdout', async () => {
    const stdio = await open();
    stdio.send(rev2026(1, 'tools/call', { name: 'test_input_required_result_elicitation', arguments: {} }, { elicitation: {} }));
    const round = (await stdio.response(1)).result;
    expect(round).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
    stdio.send(
      rev2026(
        2,
        'tools/call',
        {
          name: 'test_input_required_result_elicitation',
          arguments: {},
          inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
          requestState: round.requestState,
        },
        { elicitation: {} },
      ),
    );
    expect((await stdio.response(2)).result.content[0].text).toBe('Hello, Ada!');
    expect(stdio.messages.filter((message) => 'method' in message && 'id' in message)).toEqual([]);
  });

  it('writes log lines only for requests that set a logLevel', async () => {
    const stdio = await open();
    stdio.send(rev2026(1, 'tools/call', { name: 'test_logging_tool', arguments: {} }));
    await stdio.response(1);
    expect(stdio.messages.filter((message) => message.method === 'notifications/message')).toEqual([]);
    stdio.send(rev2026(2, 'tools/call', { name: 'test_logging_tool', arguments: {} }, {}, { 'io.modelcontextprotocol/logLevel': 'info' }));
    await stdio.response(2);
    expect(stdio.messages.filter((message) => message.method === 'notifications/message')).toHaveLength(3);
  });

  it('cancels a request on notifications/cancelled: the handler is aborted and nothing is answered', async () => {
    const stdio = await open();
    stdio.send(rev2026('slow', 'tools/call', { name: 'wait_for_abort', arguments: {} }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    stdio.send(notification('notifications/cancelled', { requestId: 'slow' }));
    await stdio.waitFor(() => (stdio.probes.aborted.includes('slow') ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stdio.messages.find((message) => message.id === 'slow')).toBeUndefined();
  });

  it('serves subscriptions/listen on stdout, tagged, until the client cancels it', async () => {
    const stdio = await open();
    stdio.send(rev2026('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    const ack = await stdio.waitFor(() => stdio.messages.find((message) => message.method === 'notifications/subscriptions/acknowledged'));
    expect(ack.params).toEqual({ notifications: { toolsListChanged: true }, _meta: { [SUB_ID]: 'listen-1' } });
    stdio.send(rev2026(1, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} }));
    await stdio.response(1);
    const change = await stdio.waitFor(() => stdio.messages.find((message) => message.method === 'notifications/tools/list_changed'));
    expect(change.params._meta[SUB_ID]).toBe('listen-1');
    stdio.send(notification('notifications/cancelled', { requestId: 'listen-1' }));
    stdio.send(rev2026(2, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} }));
    await stdio.response(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stdio.messages.filter((message) => message.method === 'notifications/tools/list_changed')).toHaveLength(1);
  });
});

describe('2026-07-28 over stdio: the built weather server', () => {
  const processes: StdioServerProcess[] = [];

  beforeAll(async () => {
    await ensureBuilt();
  }, 180_000);

  afterEach(async () => {
    for (const server of processes.splice(0)) {
      server.kill();
      await server.waitForExit(2_000);
    }
  });

  it('serves a 2026-07-28 tools/call and stays in that era (stdout carries only protocol messages)', async () => {
    const server = new StdioServerProcess(WEATHER_MAIN, ['--stdio']);
    processes.push(server);
    server.send(rev2026(1, 'tools/call', { name: 'get_weather', arguments: { city: 'Beijing' } }));
    const answer = await server.response(1);
    expect(answer.result).toMatchObject({ resultType: 'complete', isError: false, structuredContent: { status: 'success' } });
    server.send(rpc(2, 'initialize', initializeParams('2025-11-25')));
    expect((await server.response(2)).error.code).toBe(-32022);
    expect(() => server.messages()).not.toThrow();
  });

  it("lets the 2.4 client pick the 2026-07-28 era in 'auto' mode (probe on a sibling process, no initialize)", async () => {
    const client = new ClientV2(
      { name: 'stdio-auto', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [WEATHER_MAIN, '--stdio'],
      cwd: REPO_ROOT,
      stderr: 'ignore',
    });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const created = await client.callTool({
        name: 'create_weather_alert',
        arguments: { city: 'Tokyo', threshold_celsius: 35, priority: 'critical', idempotency_key: 'stdio-auto-key-0123456789' },
      });
      const alertId = (created.structuredContent as { data: { alert_id: string } }).data.alert_id;
      const deleted = await client.callTool({ name: 'delete_weather_alert', arguments: { alert_id: alertId } });
      expect(deleted.structuredContent).toEqual({ status: 'success', data: { alert_id: alertId, deleted: true } });
    } finally {
      await client.close();
    }
  });
});
