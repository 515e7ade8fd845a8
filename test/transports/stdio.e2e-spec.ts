import { PassThrough } from 'node:stream';
import type { TestingModule } from '@nestjs/testing';
import { Test } from '@nestjs/testing';
import { serveMcpOverStdio } from '@nest-mcp/core';
import { todayUtc } from '../../apps/weather-server/src/weather/weather.model.js';
import { expectedReport } from '../support/weather-expectations.js';
import { createFixtureModule, fixtureEvents, resetFixtureEvents, waitForFixtureEvent } from '../fixtures/streaming-tools.module.js';
import { ensureBuilt, ensureFixtureCompiled, WEATHER_MAIN } from '../kit/build.js';
import { envelopeOf, initializeParams, notification, rpc } from '../kit/http.js';
import { assertJsonRpcLines, StdioServerProcess } from '../kit/stdio.js';
import { McpStdioTransport } from '../../libs/mcp/src/transports/stdio/stdio.transport.js';

const processes: StdioServerProcess[] = [];

function spawnServer(script: string, args: string[] = []): StdioServerProcess {
  const server = new StdioServerProcess(script, args);
  processes.push(server);
  return server;
}

afterEach(async () => {
  // Every spawned process is killed by its PID if a test left it running.
  for (const server of processes.splice(0)) {
    server.kill();
    await server.waitForExit(2_000);
  }
});

describe('stdio: the built weather server (node dist/apps/weather-server/main.js --stdio)', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 180_000);

  it('serves initialize, tools/list, a garbage line and a call; every stdout line is one JSON-RPC message; Nest logs go to stderr', async () => {
    const server = spawnServer(WEATHER_MAIN, ['--stdio']);
    server.send(rpc(1, 'initialize', initializeParams('2025-11-25')));
    const init = await server.response(1);
    expect(init).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-11-25', serverInfo: { name: 'weather-server', version: '1.0.0' } },
    });

    server.send(notification('notifications/initialized'));
    server.send(rpc(2, 'tools/list'));
    const list = await server.response(2);
    expect(list.result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['get_forecast', 'get_weather']));

    server.send('garbage');
    const parseError = await server.waitFor(
      () => server.parsedLines().find((message) => message?.error?.code === -32700),
      10_000,
      'the -32700 answer',
    );
    expect(parseError).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });

    const before = todayUtc();
    server.send(rpc('w', 'tools/call', { name: 'get_weather', arguments: { city: '北京' } }));
    const call = await server.response('w');
    expect(call.result.isError).toBe(false);
    const date = call.result.structuredContent.data.date;
    expect([before, todayUtc()]).toContain(date);
    expect(call.result.structuredContent).toEqual({ status: 'success', data: expectedReport('Beijing', date) });
    expect(envelopeOf(call.result)).toEqual(call.result.structuredContent);

    server.endInput();
    const exit = await server.waitForExit();
    expect(exit).toEqual({ code: 0, signal: null, timedOut: false });

    // Framing: newline-delimited, each line one JSON-RPC message, nothing else on stdout.
    expect(server.stdout.endsWith('\n')).toBe(true);
    assertJsonRpcLines(server.lines);
    expect(server.lines).toHaveLength(4); // initialize, tools/list, parse error, tools/call: the notification gets nothing
    // Nest logged while booting, and none of it reached stdout; stderr is a pipe here: plain text, no ANSI colours.
    expect(server.stderr).toMatch(/Nest|McpModule|Instance/);
    expect(server.stderr).not.toContain('\u001b[');
    // The summary names the transport it serves over, not an HTTP path it does not listen on.
    expect(server.stderr).toMatch(/weather-server \(stdio\): \d+ tools/);
  });

  it('EOF right after requests: the in-flight calls still answer, then the process exits 0', async () => {
    const server = spawnServer(WEATHER_MAIN, ['--stdio']);
    // Everything in one write, stdin closed at once.
    server.child.stdin.end(
      [
        JSON.stringify(rpc(1, 'initialize', initializeParams('2025-06-18'))),
        JSON.stringify(notification('notifications/initialized')),
        ...Array.from({ length: 5 }, (_, index) =>
          JSON.stringify(rpc(`f${index}`, 'tools/call', { name: 'get_forecast', arguments: { city: 'Tokyo', days: 14 } })),
        ),
      ].join('\n') + '\n',
    );
    const exit = await server.waitForExit();
    expect(exit).toEqual({ code: 0, signal: null, timedOut: false });
    assertJsonRpcLines(server.lines);
    const ids = server.messages().map((message) => message.id);
    expect(ids.sort()).toEqual([1, 'f0', 'f1', 'f2', 'f3', 'f4'].sort());
    for (const message of server.messages().filter((m) => m.id !== 1)) expect(message.result.structuredContent.data.days).toHaveLength(14);
  });

  it('SIGTERM while idle: exits 0', async () => {
    const server = spawnServer(WEATHER_MAIN, ['--stdio']);
    server.send(rpc(1, 'initialize', initializeParams()));
    await server.response(1);
    server.signal('SIGTERM');
    expect(await server.waitForExit()).toEqual({ code: 0, signal: null, timedOut: false });
    assertJsonRpcLines(server.lines);
  });

  it('SIGTERM right after a burst of calls: exits 0, and what it wrote is whole JSON-RPC lines answering sent ids', async () => {
    const server = spawnServer(WEATHER_MAIN, ['--stdio']);
    server.send(rpc(1, 'initialize', initializeParams()));
    await server.response(1);
    const ids = Array.from({ length: 20 }, (_, index) => `c${index}`);
    for (const id of ids) server.send(rpc(id, 'tools/call', { name: 'get_forecast', arguments: { city: 'Paris', days: 14 } }));
    server.signal('SIGTERM');
    expect(await server.waitForExit()).toEqual({ code: 0, signal: null, timedOut: false });
    assertJsonRpcLines(server.lines);
    const answered = server
      .messages()
      .map((message) => message.id)
      .filter((id) => id !== 1);
    expect(new Set(answered).size).toBe(answered.length);
    for (const id of answered) expect(ids).toContain(id);
  });
});

describe('stdio: the fixture server spawned (slow calls in flight)', () => {
  let entry: string;

  beforeAll(async () => {
    entry = await ensureFixtureCompiled();
  }, 180_000);

  it('EOF while idle: serveMcpOverStdio returns, the app closes, the process exits 0', async () => {
    const server = spawnServer(entry);
    server.send(rpc(1, 'initialize', initializeParams()));
    await server.response(1);
    server.endInput();
    expect(await server.waitForExit()).toEqual({ code: 0, signal: null, timedOut: false });
    expect(server.stderr).toContain('fixture: application closed');
    expect(server.stderr).toContain('fixture: serveMcpOverStdio returned');
  });

  async function startWithSlowCall(): Promise<StdioServerProcess> {
    const server = spawnServer(entry);
    server.send(rpc(1, 'initialize', initializeParams()));
    await server.response(1);
    server.send(notification('notifications/initialized'));
    server.send(rpc('slow', 'tools/call', { name: 'slow_count', arguments: { steps: 4, delayMs: 200 }, _meta: { progressToken: 'p' } }));
    await server.waitFor(
      () => server.parsedLines().some((message) => message?.method === 'notifications/progress'),
      10_000,
      'the first progress notification',
    );
    return server;
  }

  function assertFinishedSlowCall(server: StdioServerProcess): void {
    assertJsonRpcLines(server.lines);
    const messages = server.messages();
    const progress = messages.filter((message) => message.method === 'notifications/progress').map((message) => message.params.progress);
    expect(progress).toEqual([1, 2, 3, 4]);
    const response = messages.find((message) => message.id === 'slow');
    expect(response).toBeDefined();
    expect(envelopeOf(response.result)).toEqual({ status: 'success', data: { counted: 4 } });
    // The response is the last thing written for the call.
    expect(messages.indexOf(response)).toBe(messages.length - 1);
  }

  it('EOF during a call: the call finishes and answers, serveMcpOverStdio returns and closes the app, the process exits 0', async () => {
    const server = await startWithSlowCall();
    server.endInput();
    const exit = await server.waitForExit();
    assertFinishedSlowCall(server);
    expect(server.stderr).toContain('fixture: application closed');
    expect(server.stderr).toContain('fixture: serveMcpOverStdio returned');
    expect(exit).toEqual({ code: 0, signal: null, timedOut: false });
  });

  it('SIGTERM during a call: the call finishes and answers, serveMcpOverStdio returns and closes the app, the process exits 0', async () => {
    const server = await startWithSlowCall();
    server.signal('SIGTERM');
    const exit = await server.waitForExit();
    assertFinishedSlowCall(server);
    // The entry point awaits serveMcpOverStdio() at top level: if that promise never settles, Node exits with 13.
    expect({
      exit,
      closed: server.stderr.includes('fixture: application closed'),
      returned: server.stderr.includes('fixture: serveMcpOverStdio returned'),
    }).toEqual({
      exit: { code: 0, signal: null, timedOut: false },
      closed: true,
      returned: true,
    });
  });

  it('SIGINT while idle: serveMcpOverStdio returns and the process exits 0', async () => {
    const server = spawnServer(entry);
    server.send(rpc(1, 'initialize', initializeParams()));
    await server.response(1);
    server.signal('SIGINT');
    const exit = await server.waitForExit();
    expect({ exit, returned: server.stderr.includes('fixture: serveMcpOverStdio returned') }).toEqual({
      exit: { code: 0, signal: null, timedOut: false },
      returned: true,
    });
  });

  it('console.log and log notifications while serving: stdout stays protocol-only, console output goes to stderr', async () => {
    const server = spawnServer(entry);
    server.send(rpc(1, 'initialize', initializeParams()));
    await server.response(1);
    server.send(rpc(2, 'tools/call', { name: 'log_levels', arguments: {} }));
    await server.response(2);
    await server.waitFor(() => server.stderr.includes('must not reach the protocol stream'), 5_000, 'the console.log line on stderr');
    server.endInput();
    expect((await server.waitForExit()).code).toBe(0);
    assertJsonRpcLines(server.lines);
    expect(server.stdout).not.toContain('must not reach');
    const levels = server
      .messages()
      .filter((message) => message.method === 'notifications/message')
      .map((message) => message.params.level);
    expect(levels).toEqual(['debug', 'info', 'warning', 'error']);
  });
});

describe('stdio in-process: serveMcpOverStdio(app, { input, write }) with the fixture module', () => {
  let moduleRef: TestingModule;
  let input: PassThrough;
  let lines: string[];
  let serving: Promise<void>;

  const parsed = () => lines.map((line) => JSON.parse(line));

  async function until<T>(condition: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = condition();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out; lines so far:\n${lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const responseTo = (id: string | number) =>
    until(() => parsed().find((message) => message.id === id && ('result' in message || 'error' in message)));
  const send = (message: unknown) => input.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);

  beforeEach(async () => {
    resetFixtureEvents();
    moduleRef = await Test.createTestingModule({ imports: [createFixtureModule()] }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    input = new PassThrough();
    lines = [];
    let partial = '';
    serving = serveMcpOverStdio(moduleRef, {
      input,
      write: (chunk) => {
        partial += chunk;
        let index: number;
        while ((index = partial.indexOf('\n')) >= 0) {
          lines.push(partial.slice(0, index));
          partial = partial.slice(index + 1);
        }
      },
    });
    send(rpc(0, 'initialize', initializeParams()));
    await responseTo(0);
    send(notification('notifications/initialized'));
  });

  afterEach(async () => {
    if (!input.writableEnded) input.end();
    await serving;
  });

  it('progress notifications are lines written before the response when a progressToken is given', async () => {
    send(rpc(1, 'tools/call', { name: 'slow_count', arguments: { steps: 3, delayMs: 10 }, _meta: { progressToken: 7 } }));
    const response = await responseTo(1);
    assertJsonRpcLines(lines);
    const messages = parsed();
    const responseIndex = messages.indexOf(messages.find((message) => message.id === 1));
    const progress = messages.filter((message) => message.method === 'notifications/progress');
    expect(progress.map((message) => message.params)).toEqual(
      [1, 2, 3].map((i) => ({ progressToken: 7, progress: i, total: 3, message: `step ${i}` })),
    );
    for (const message of progress) expect(messages.indexOf(message)).toBeLessThan(responseIndex);
    expect(messages.filter((message) => message.method === 'notifications/message').map((message) => message.params.data)).toEqual([
      { step: 1 },
      { step: 2 },
      { step: 3 },
    ]);
    expect(envelopeOf(response.result)).toEqual({ status: 'success', data: { counted: 3 } });
    expect(fixtureEvents.find((event) => event.type === 'started')?.transport).toBe('stdio');
  });

  it('without a progressToken no progress lines are written', async () => {
    send(rpc(1, 'tools/call', { name: 'slow_count', arguments: { steps: 2, delayMs: 0 } }));
    await responseTo(1);
    expect(parsed().some((message) => message.method === 'notifications/progress')).toBe(false);
  });

  it('notifications/cancelled aborts wait_for_abort, and no response line is written for it', async () => {
    send(rpc('w1', 'tools/call', { name: 'wait_for_abort', arguments: {} }));
    await waitForFixtureEvent((event) => event.type === 'started' && event.requestId === 'w1');
    send(notification('notifications/cancelled', { requestId: 'w1', reason: 'stop' }));
    const aborted = await waitForFixtureEvent((event) => event.type === 'aborted' && event.requestId === 'w1');
    expect(aborted.reason).toContain('stop');
    // The connection goes on: a later request answers, and still nothing came for w1.
    send(rpc('p', 'ping'));
    expect(await responseTo('p')).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    input.end();
    await serving;
    assertJsonRpcLines(lines);
    expect(parsed().some((message) => message.id === 'w1')).toBe(false);
  });

  it('two connections to one app cancel only their own calls, under the same request id', async () => {
    const other = new PassThrough();
    const otherLines: string[] = [];
    const otherServing = moduleRef
      .get(McpStdioTransport, { strict: false })
      .serve({ input: other, write: (line) => otherLines.push(line) });
    const sendOther = (message: unknown) => other.write(`${JSON.stringify(message)}\n`);
    sendOther(rpc(0, 'initialize', initializeParams()));
    await until(() => otherLines.length > 0);
    const started = () => fixtureEvents.filter((event) => event.type === 'started' && event.requestId === 'w1').length;
    send(rpc('w1', 'tools/call', { name: 'wait_for_abort', arguments: {} }));
    await until(() => started() === 1);
    sendOther(rpc('w1', 'tools/call', { name: 'wait_for_abort', arguments: {} }));
    await until(() => started() === 2);
    // Each connection cancels its own w1: both calls see the abort (a shared scope let the first cancel hit the
    // second connection's call, and the first call waited for its safety timeout).
    send(notification('notifications/cancelled', { requestId: 'w1', reason: 'first' }));
    sendOther(notification('notifications/cancelled', { requestId: 'w1', reason: 'second' }));
    const aborted = () => fixtureEvents.filter((event) => event.type === 'aborted' && event.requestId === 'w1');
    await until(() => aborted().length === 2, 2_000);
    expect(
      aborted()
        .map((event) => event.reason)
        .sort(),
    ).toEqual([expect.stringContaining('first'), expect.stringContaining('second')]);
    other.end();
    await otherServing;
  });

  it('logging/setLevel filters the log lines of later calls', async () => {
    send(rpc(1, 'logging/setLevel', { level: 'error' }));
    expect(await responseTo(1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    send(rpc(2, 'tools/call', { name: 'log_levels', arguments: {} }));
    await responseTo(2);
    expect(
      parsed()
        .filter((message) => message.method === 'notifications/message')
        .map((message) => message.params.level),
    ).toEqual(['error']);
    send(rpc(3, 'logging/setLevel', { level: 'loud' }));
    expect(await responseTo(3)).toMatchObject({ error: { code: -32602 } });
  });

  it('a garbage line answers -32700 with id null and the connection goes on', async () => {
    send('{"jsonrpc": "2.0", "id": 5, "method": ');
    await until(() => parsed().find((message) => message.error?.code === -32700));
    send(rpc(6, 'ping'));
    await responseTo(6);
    expect(parsed().find((message) => message.error?.code === -32700)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
  });

  describe('batches, answered as Streamable HTTP answers them', () => {
    // Batches exist in 2025-03-26 only: the connection renegotiates to it.
    beforeEach(async () => {
      send(rpc('v', 'initialize', initializeParams('2025-03-26')));
      expect(await responseTo('v')).toMatchObject({ result: { protocolVersion: '2025-03-26' } });
    });

    const invalidBatch = { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } };

    it('a batch of two requests answers one JSON array on one line', async () => {
      send([rpc(1, 'ping'), rpc(2, 'ping')]);
      const answer = await until(() => parsed().find((message) => Array.isArray(message)));
      expect(answer).toEqual([
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 2, result: {} },
      ]);
    });

    it('a batch larger than limits.maxJsonCollectionSize (10 000) → one -32600 line, no dispatch', async () => {
      send(`[${Array.from({ length: 10_001 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}`).join(',')}]`);
      send(rpc('after', 'ping'));
      await responseTo('after');
      expect(parsed().filter((message) => Array.isArray(message))).toEqual([]);
      expect(parsed().filter((message) => message.error?.code === -32600)).toEqual([invalidBatch]);
    });

    it('initialize inside a batch → -32600, and nothing in the batch is served', async () => {
      send([rpc(1, 'initialize', initializeParams('2025-03-26')), rpc(2, 'ping')]);
      expect(await until(() => parsed().find((message) => message.error?.code === -32600))).toEqual(invalidBatch);
      expect(parsed().some((message) => Array.isArray(message) || message.id === 2)).toBe(false);
    });
  });

  it('the end of input resolves serveMcpOverStdio after the in-flight call answered', async () => {
    send(rpc('last', 'tools/call', { name: 'slow_count', arguments: { steps: 2, delayMs: 100 } }));
    await waitForFixtureEvent((event) => event.type === 'started' && event.requestId === 'last');
    input.end();
    await serving;
    const response = parsed().find((message) => message.id === 'last');
    expect(envelopeOf(response.result)).toEqual({ status: 'success', data: { counted: 2 } });
  });
});
