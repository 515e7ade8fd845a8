import { fixtureEvents, resetFixtureEvents, waitForFixtureEvent } from '../fixtures/streaming-tools.module.js';
import { type RunningApp, startFixtureApp } from '../kit/apps.js';
import { envelopeOf, initializeParams, notification, openSession, post, postStream, rpc, sleep } from '../kit/http.js';
import { messagesOf, type SseItem, SseReader } from '../kit/sse.js';

/** Event ids of a session's streams: `<stream>.<sequence>`. */
const EVENT_ID = /^([A-Za-z0-9_-]+)\.(\d+)$/;
/** Session ids: visible ASCII only (spec: 0x21 to 0x7E). */
const VISIBLE_ASCII = /^[\x21-\x7E]+$/;

function sequenceOf(id: string | undefined): number {
  const match = EVENT_ID.exec(id ?? '');
  if (!match) throw new Error(`not a stream event id: ${String(id)}`);
  return Number(match[2]);
}

function streamOf(id: string | undefined): string {
  const match = EVENT_ID.exec(id ?? '');
  if (!match) throw new Error(`not a stream event id: ${String(id)}`);
  return match[1];
}

const events = (items: SseItem[]) => items.filter((item) => item.kind === 'event');

function slowCall(id: string | number, steps: number, delayMs: number, progressToken?: string | number): Record<string, unknown> {
  const params: Record<string, unknown> = { name: 'slow_count', arguments: { steps, delayMs } };
  if (progressToken !== undefined) params._meta = { progressToken };
  return rpc(id, 'tools/call', params);
}

/** Every GET's controller: aborted after each test, so no stream outlives its test (or blocks server.close()). */
const openStreams: AbortController[] = [];

afterEach(() => {
  for (const controller of openStreams.splice(0)) controller.abort();
});

function get(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  const controller = new AbortController();
  openStreams.push(controller);
  signal?.addEventListener('abort', () => controller.abort(), { once: true });
  return fetch(url, { method: 'GET', headers, signal: controller.signal });
}

/** A priming event: an id, empty data, and possibly a `retry:` hint. */
const PRIMING = { kind: 'event', id: expect.stringMatching(EVENT_ID), data: '' };

describe('Streamable HTTP transport (fixture server, raw HTTP)', () => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startFixtureApp({ http: { streams: { keepAliveMs: 60_000 } } });
  });

  afterAll(async () => {
    await server?.close();
  });

  beforeEach(() => resetFixtureEvents());

  describe('sessions', () => {
    it('initialize answers with a random, visible-ASCII Mcp-Session-Id; the id is used, then DELETE ends it and it is 404 after', async () => {
      const first = await post(server.url, rpc(1, 'initialize', initializeParams()));
      expect(first.status).toBe(200);
      expect(first.contentType).toMatch(/^application\/json/);
      expect(first.json).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-11-25', serverInfo: { name: 'fixture', version: '1.0.0' } },
      });
      const sessionId = first.headers.get('mcp-session-id')!;
      expect(sessionId).toMatch(VISIBLE_ASCII);
      expect(sessionId.length).toBeGreaterThanOrEqual(16);

      const second = await post(server.url, rpc(1, 'initialize', initializeParams()));
      expect(second.headers.get('mcp-session-id')).toMatch(VISIBLE_ASCII);
      expect(second.headers.get('mcp-session-id')).not.toBe(sessionId);

      const initialized = await post(server.url, notification('notifications/initialized'), {
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': '2025-11-25',
      });
      expect(initialized.status).toBe(202);
      expect(initialized.text).toBe('');

      const list = await post(server.url, rpc(2, 'tools/list'), { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' });
      expect(list.status).toBe(200);
      expect(list.json.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
        'log_levels',
        'slow_count',
        'wait_for_abort',
      ]);

      const ended = await fetch(server.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId } });
      expect(ended.status).toBe(200);

      const after = await post(server.url, rpc(3, 'tools/list'), { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' });
      expect(after.status).toBe(404);
      expect(after.json).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32001 } });

      const deleteAgain = await fetch(server.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId } });
      expect(deleteAgain.status).toBe(404);
      const getAfter = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream' });
      expect(getAfter.status).toBe(404);
      expect(await getAfter.json()).toMatchObject({ error: { code: -32001 } });
    });

    it('an unknown session id is 404 with -32001 on POST, GET and DELETE', async () => {
      const unknown = 'no-such-session-0123456789';
      const answer = await post(server.url, rpc('a', 'ping'), { 'Mcp-Session-Id': unknown });
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 'a', error: { code: -32001 } });

      const getResponse = await get(server.url, { 'Mcp-Session-Id': unknown, Accept: 'text/event-stream' });
      expect(getResponse.status).toBe(404);
      expect(await getResponse.json()).toMatchObject({ error: { code: -32001 } });

      const deleteResponse = await fetch(server.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': unknown } });
      expect(deleteResponse.status).toBe(404);
      expect(await deleteResponse.json()).toMatchObject({ error: { code: -32001 } });
    });

    it('a POST without a session id is served statelessly (no session header in the answer)', async () => {
      const call = await post(server.url, slowCall(7, 2, 0), { Accept: 'application/json' });
      expect(call.status).toBe(200);
      expect(call.headers.get('mcp-session-id')).toBeNull();
      expect(call.json).toMatchObject({ jsonrpc: '2.0', id: 7, result: { isError: false } });
      expect(envelopeOf(call.json.result)).toEqual({ status: 'success', data: { counted: 2 } });
    });

    it('initialize sent with a session id is refused (the session is already initialized)', async () => {
      const { sessionId } = await openSession(server.url);
      const again = await post(server.url, rpc(9, 'initialize', initializeParams()), { 'Mcp-Session-Id': sessionId });
      expect(again.status).toBe(400);
      expect(again.json).toMatchObject({ id: 9, error: { code: -32600 } });
    });
  });

  describe('MCP-Protocol-Version header', () => {
    it('an unsupported version on a non-initialize request is 400, with or without a session', async () => {
      const stateless = await post(server.url, rpc(1, 'tools/list'), { 'MCP-Protocol-Version': '1999-01-01' });
      expect(stateless.status).toBe(400);
      expect(stateless.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { message: expect.stringContaining('1999-01-01') } });

      const { sessionId } = await openSession(server.url);
      const inSession = await post(server.url, rpc(2, 'tools/list'), {
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': 'not-a-version',
      });
      expect(inSession.status).toBe(400);
    });

    it('supported versions are accepted, and initialize ignores the header (negotiation is in the body)', async () => {
      for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
        const list = await post(server.url, rpc(1, 'tools/list'), { 'MCP-Protocol-Version': version });
        expect(list.status).toBe(200);
      }
      const init = await post(server.url, rpc(1, 'initialize', initializeParams('2025-06-18')), { 'MCP-Protocol-Version': '1999-01-01' });
      expect(init.status).toBe(200);
      expect(init.json.result.protocolVersion).toBe('2025-06-18');
    });
  });

  describe('progress and logs over SSE', () => {
    it('a call with a progressToken answers as an SSE stream: priming event, progress (increasing) and logs, then the response last', async () => {
      const { sessionId } = await openSession(server.url);
      const answer = await post(server.url, slowCall('c1', 4, 20, 'tok-1'), {
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': '2025-11-25',
      });
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^text\/event-stream/);
      expect(answer.headers.get('cache-control')).toContain('no-cache');

      const all = events(answer.items);
      // 2025-11-25: a priming event (an id and empty data) comes first, so the client has a Last-Event-ID at once.
      expect(all[0]).toMatchObject(PRIMING);
      expect(all[0].event).toBeUndefined();
      const messageEvents = all.slice(1);
      for (const event of messageEvents) {
        expect(event.event).toBe('message');
        expect(event.id).toMatch(EVENT_ID);
        expect(streamOf(event.id)).toBe(streamOf(all[0].id));
      }
      const sequences = all.map((event) => sequenceOf(event.id));
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
      expect(new Set(sequences).size).toBe(sequences.length);

      const messages = messagesOf(answer.items);
      const progress = messages.filter((message) => message.method === 'notifications/progress');
      expect(progress.map((message) => message.params)).toEqual(
        [1, 2, 3, 4].map((i) => ({ progressToken: 'tok-1', progress: i, total: 4, message: `step ${i}` })),
      );
      const logs = messages.filter((message) => message.method === 'notifications/message');
      expect(logs.map((message) => message.params)).toEqual([1, 2, 3, 4].map((i) => ({ level: 'info', data: { step: i } })));
      // Each step: its progress, then its log line.
      expect(messages.slice(0, -1).map((message) => message.method)).toEqual(
        [1, 2, 3, 4].flatMap(() => ['notifications/progress', 'notifications/message']),
      );
      const last = messages[messages.length - 1];
      expect(last).toMatchObject({ jsonrpc: '2.0', id: 'c1', result: { isError: false } });
      expect(envelopeOf(last.result)).toEqual({ status: 'success', data: { counted: 4 } });
    });

    it('without a progressToken there is no progress, but log lines still make it a stream', async () => {
      const { sessionId } = await openSession(server.url);
      const answer = await post(server.url, slowCall(2, 2, 0), { 'Mcp-Session-Id': sessionId });
      expect(answer.contentType).toMatch(/^text\/event-stream/);
      const methods = answer.messages.map((message) => message.method ?? 'response');
      expect(methods).toEqual(['notifications/message', 'notifications/message', 'response']);
    });

    it('a client that accepts only JSON gets one JSON response (no notifications)', async () => {
      const { sessionId } = await openSession(server.url);
      const answer = await post(server.url, slowCall(3, 3, 0, 'tok'), { 'Mcp-Session-Id': sessionId, Accept: 'application/json' });
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(answer.json).toMatchObject({ id: 3, result: { isError: false } });
    });

    it('stateless stream (no session): no event ids and no priming event', async () => {
      const answer = await post(server.url, slowCall(4, 2, 0, 'tok'), { 'MCP-Protocol-Version': '2025-11-25' });
      expect(answer.contentType).toMatch(/^text\/event-stream/);
      const all = events(answer.items);
      expect(all.every((event) => event.id === undefined && event.event === 'message' && event.data !== '')).toBe(true);
      expect(answer.messages.map((message) => message.method ?? 'response')).toEqual([
        'notifications/progress',
        'notifications/message',
        'notifications/progress',
        'notifications/message',
        'response',
      ]);
    });

    it('a 2025-06-18 session gets no priming event, but resumable ids', async () => {
      const { sessionId } = await openSession(server.url, { protocolVersion: '2025-06-18' });
      const answer = await post(server.url, slowCall(5, 1, 0, 'tok'), {
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': '2025-06-18',
      });
      const all = events(answer.items);
      expect(all.every((event) => event.data !== '' && EVENT_ID.test(event.id ?? ''))).toBe(true);
      expect(answer.messages.map((message) => message.method ?? 'response')).toEqual([
        'notifications/progress',
        'notifications/message',
        'response',
      ]);
    });
  });

  describe('logging/setLevel', () => {
    const levelsOf = (messages: any[]) =>
      messages.filter((message) => message.method === 'notifications/message').map((message) => message.params.level);

    it('without setLevel every level is sent, in order, with the logger name', async () => {
      const { sessionId } = await openSession(server.url);
      const answer = await post(server.url, rpc(1, 'tools/call', { name: 'log_levels', arguments: {} }), { 'Mcp-Session-Id': sessionId });
      expect(levelsOf(answer.messages)).toEqual(['debug', 'info', 'warning', 'error']);
      expect(answer.messages[0].params).toEqual({ level: 'debug', logger: 'fixture', data: { level: 'debug', text: 'a debug message' } });
      expect(answer.messages[answer.messages.length - 1]).toMatchObject({ id: 1, result: { isError: false } });
    });

    it('setLevel answers {} and filters later log lines of the session below that level', async () => {
      const { sessionId } = await openSession(server.url);
      const set = await post(server.url, rpc(1, 'logging/setLevel', { level: 'warning' }), { 'Mcp-Session-Id': sessionId });
      expect(set.status).toBe(200);
      expect(set.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });

      const answer = await post(server.url, rpc(2, 'tools/call', { name: 'log_levels', arguments: {} }), { 'Mcp-Session-Id': sessionId });
      expect(levelsOf(answer.messages)).toEqual(['warning', 'error']);

      await post(server.url, rpc(3, 'logging/setLevel', { level: 'error' }), { 'Mcp-Session-Id': sessionId });
      const again = await post(server.url, rpc(4, 'tools/call', { name: 'log_levels', arguments: {} }), { 'Mcp-Session-Id': sessionId });
      expect(levelsOf(again.messages)).toEqual(['error']);

      // Another session is not affected.
      const other = await openSession(server.url);
      const otherPost = await post(server.url, rpc(5, 'tools/call', { name: 'log_levels', arguments: {} }), {
        'Mcp-Session-Id': other.sessionId,
      });
      expect(levelsOf(otherPost.messages)).toEqual(['debug', 'info', 'warning', 'error']);
    });

    it('setLevel emergency silences everything below: the call answers as plain JSON', async () => {
      const { sessionId } = await openSession(server.url);
      await post(server.url, rpc(1, 'logging/setLevel', { level: 'emergency' }), { 'Mcp-Session-Id': sessionId });
      const answer = await post(server.url, rpc(2, 'tools/call', { name: 'log_levels', arguments: {} }), { 'Mcp-Session-Id': sessionId });
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(answer.json).toMatchObject({ id: 2, result: { isError: false } });
    });

    it('an invalid level is -32602', async () => {
      const { sessionId } = await openSession(server.url);
      for (const level of ['verbose', 'WARNING', 3, undefined]) {
        const set = await post(server.url, rpc(1, 'logging/setLevel', level === undefined ? {} : { level }), {
          'Mcp-Session-Id': sessionId,
        });
        expect(set.status).toBe(200);
        expect(set.json).toMatchObject({ id: 1, error: { code: -32602 } });
      }
    });
  });

  describe('cancellation', () => {
    it('notifications/cancelled in the same session aborts the call; its POST ends with 202 and no JSON-RPC response', async () => {
      const { sessionId } = await openSession(server.url);
      const pending = post(server.url, rpc('call-1', 'tools/call', { name: 'wait_for_abort', arguments: {} }), {
        'Mcp-Session-Id': sessionId,
      });
      await waitForFixtureEvent((event) => event.type === 'started' && event.requestId === 'call-1' && event.sessionId === sessionId);

      const cancel = await post(server.url, notification('notifications/cancelled', { requestId: 'call-1', reason: 'user pressed stop' }), {
        'Mcp-Session-Id': sessionId,
      });
      expect(cancel.status).toBe(202);
      expect(cancel.text).toBe('');

      const answer = await pending;
      expect(answer.status).toBe(202);
      expect(answer.text).toBe('');
      const aborted = await waitForFixtureEvent((event) => event.type === 'aborted' && event.requestId === 'call-1');
      expect(aborted.reason).toContain('user pressed stop');
    });

    it('a cancellation from another session (same request id) does not abort the call', async () => {
      const a = await openSession(server.url);
      const b = await openSession(server.url);
      const pending = post(server.url, rpc(42, 'tools/call', { name: 'wait_for_abort', arguments: {} }), { 'Mcp-Session-Id': a.sessionId });
      await waitForFixtureEvent((event) => event.type === 'started' && event.requestId === 42 && event.sessionId === a.sessionId);

      const foreign = await post(server.url, notification('notifications/cancelled', { requestId: 42 }), { 'Mcp-Session-Id': b.sessionId });
      expect(foreign.status).toBe(202);
      // A string id "42" is a different id than the number 42.
      const wrongType = await post(server.url, notification('notifications/cancelled', { requestId: '42' }), {
        'Mcp-Session-Id': a.sessionId,
      });
      expect(wrongType.status).toBe(202);
      await sleep(150);
      expect(fixtureEvents.some((event) => event.type === 'aborted' && event.requestId === 42)).toBe(false);

      await post(server.url, notification('notifications/cancelled', { requestId: 42 }), { 'Mcp-Session-Id': a.sessionId });
      expect((await pending).status).toBe(202);
      await waitForFixtureEvent((event) => event.type === 'aborted' && event.requestId === 42);
    });

    it('a cancelled streaming call: the SSE stream just ends, without a response', async () => {
      const { sessionId } = await openSession(server.url);
      const response = await postStream(server.url, slowCall('s1', 20, 100, 'tok'), { 'Mcp-Session-Id': sessionId });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = new SseReader(response);
      // Wait for the first progress notification, then cancel.
      for (;;) {
        const event = await reader.nextEvent();
        if (event?.data && JSON.parse(event.data).method === 'notifications/progress') break;
      }
      const cancel = await post(server.url, notification('notifications/cancelled', { requestId: 's1' }), { 'Mcp-Session-Id': sessionId });
      expect(cancel.status).toBe(202);
      const rest = await reader.readToEnd();
      const messages = messagesOf(rest);
      expect(messages.some((message) => 'result' in message || 'error' in message)).toBe(false);
      const aborted = await waitForFixtureEvent((event) => event.type === 'aborted' && event.requestId === 's1');
      expect(aborted.step).toBeLessThan(20);
    });
  });

  describe('resumption (Last-Event-ID)', () => {
    async function startDroppedCall(sessionId: string, id: string, keep = 2) {
      const controller = new AbortController();
      openStreams.push(controller);
      const response = await postStream(server.url, slowCall(id, 6, 150, `tok-${id}`), { 'Mcp-Session-Id': sessionId }, controller.signal);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = new SseReader(response);
      const received: SseItem[] = [];
      while (received.length < keep) received.push((await reader.nextEvent())!);
      // Drop the connection, as a client whose network fails would.
      controller.abort();
      await reader.cancel();
      return received;
    }

    function assertRemainder(received: SseItem[], resumed: SseItem[], id: string) {
      const lastSeen = received[received.length - 1];
      const resumedEvents = events(resumed);
      // Every resumed event continues the same stream, right after the last one seen, without gaps or repeats.
      const ids = resumedEvents.map((event) => event.id);
      expect(ids.every((eventId) => streamOf(eventId) === streamOf(lastSeen.id))).toBe(true);
      expect(ids.map(sequenceOf)).toEqual(ids.map((_, index) => sequenceOf(lastSeen.id) + 1 + index));
      const allIds = [...received, ...resumedEvents].map((event) => event.id);
      expect(new Set(allIds).size).toBe(allIds.length);

      const seenMessages = messagesOf(received);
      const resumedMessages = messagesOf(resumed);
      const all = [...seenMessages, ...resumedMessages];
      const progress = all.filter((message) => message.method === 'notifications/progress').map((message) => message.params.progress);
      expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
      const logs = all.filter((message) => message.method === 'notifications/message').map((message) => message.params.data.step);
      expect(logs).toEqual([1, 2, 3, 4, 5, 6]);
      const last = resumedMessages[resumedMessages.length - 1];
      expect(last).toMatchObject({ jsonrpc: '2.0', id, result: { isError: false } });
      expect(envelopeOf(last.result)).toEqual({ status: 'success', data: { counted: 6 } });
      expect(all.filter((message) => 'result' in message)).toHaveLength(1);
    }

    it('GET with the last event id replays what was missed and continues the live call to its response', async () => {
      const { sessionId } = await openSession(server.url);
      const received = await startDroppedCall(sessionId, 'r1');
      // The priming event, then the first progress notification.
      expect(received[0].data).toBe('');
      expect(JSON.parse(received[1].data!)).toMatchObject({ method: 'notifications/progress', params: { progress: 1 } });

      await sleep(200); // miss a few events while disconnected
      const resumed = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream', 'Last-Event-ID': received[1].id! });
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const rest = await new SseReader(resumed).readToEnd();
      // The call was still running when we resumed: it must not have been finished yet.
      assertRemainder(received, rest, 'r1');
    });

    it('resuming after the call finished replays everything after the id, then ends', async () => {
      const { sessionId } = await openSession(server.url);
      const received = await startDroppedCall(sessionId, 'r2');
      await waitForFixtureEvent((event) => event.type === 'finished' && event.requestId === 'r2');
      await sleep(50);
      const resumed = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream', 'Last-Event-ID': received[1].id! });
      expect(resumed.status).toBe(200);
      assertRemainder(received, await new SseReader(resumed).readToEnd(), 'r2');
    });

    it('resuming from the priming event (dropped before any message) replays the whole stream', async () => {
      const { sessionId } = await openSession(server.url);
      // The client got only the priming event: its id is the client's only Last-Event-ID.
      const received = await startDroppedCall(sessionId, 'r3', 1);
      expect(received[0]).toMatchObject(PRIMING);
      await sleep(200);
      const resumed = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream', 'Last-Event-ID': received[0].id! });
      const body = resumed.status === 200 ? await new SseReader(resumed).readToEnd() : await resumed.text();
      expect({ status: resumed.status, body: resumed.status === 200 ? 'stream' : body }).toEqual({ status: 200, body: 'stream' });
      assertRemainder(received, body as SseItem[], 'r3');
    });

    it('a second resume of the same stream takes it over; the superseded connection is ended, not left hanging', async () => {
      const { sessionId } = await openSession(server.url);
      const received = await startDroppedCall(sessionId, 'r5', 2);
      const headers = { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream', 'Last-Event-ID': received[1].id! };
      const first = new SseReader(await get(server.url, headers));
      const second = await get(server.url, headers);
      expect(second.status).toBe(200);
      // The newer connection carries the rest of the stream, exactly once.
      assertRemainder(received, await new SseReader(second).readToEnd(), 'r5');
      // The older one must end too (a client waiting on it would otherwise wait forever for the response).
      const firstOutcome = await first.readToEnd(1_500).then(
        () => 'ended',
        () => 'still open after the call finished',
      );
      expect(firstOutcome).toBe('ended');
    });

    it('an event id of another session, or an unknown one, is not replayed (404)', async () => {
      const a = await openSession(server.url);
      const b = await openSession(server.url);
      const received = await startDroppedCall(a.sessionId, 'r4');
      const foreign = await get(server.url, {
        'Mcp-Session-Id': b.sessionId,
        Accept: 'text/event-stream',
        'Last-Event-ID': received[1].id!,
      });
      expect(foreign.status).toBe(404);
      await foreign.body?.cancel();
      const unknown = await get(server.url, {
        'Mcp-Session-Id': a.sessionId,
        Accept: 'text/event-stream',
        'Last-Event-ID': `${streamOf(received[1].id)}.999`,
      });
      expect(unknown.status).toBe(404);
      await unknown.body?.cancel();
      await waitForFixtureEvent((event) => event.type === 'finished' && event.requestId === 'r4');
    });
  });
});

describe('Streamable HTTP: standalone GET stream', () => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startFixtureApp({ http: { streams: { keepAliveMs: 50 } } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('opens with the session id, primes (2025-11-25), sends keepalive comments; a second concurrent GET is 409', async () => {
    const { sessionId } = await openSession(server.url);
    const controller = new AbortController();
    const response = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream' }, controller.signal);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = new SseReader(response);
    const first = await reader.next(2_000);
    expect(first).toMatchObject(PRIMING);
    const comments: SseItem[] = [];
    while (comments.length < 2) {
      const item = await reader.next(2_000);
      if (item?.kind === 'comment') comments.push(item);
    }
    expect(comments.map((item) => item.comment)).toEqual(['keepalive', 'keepalive']);

    const second = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream' });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/conflict/i) } });

    controller.abort();
    await reader.cancel();
    // Once the first stream is gone, the session may open another.
    let reopened: Response | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      reopened = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream' });
      if (reopened.status !== 409) break;
      await reopened.body?.cancel();
      await sleep(20);
    }
    expect(reopened!.status).toBe(200);
    await reopened!.body?.cancel();
  });

  it('a GET with a session but without Accept: text/event-stream is 406', async () => {
    const { sessionId } = await openSession(server.url);
    const response = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'application/json' });
    expect(response.status).toBe(406);
  });

  it('DELETE ends the session and closes its open GET stream', async () => {
    const { sessionId } = await openSession(server.url);
    const response = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream' });
    const reader = new SseReader(response);
    await reader.next(2_000);
    const deleted = await fetch(server.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId } });
    expect(deleted.status).toBe(200);
    // The stream ends (keepalives may arrive before the end).
    const rest = await reader.readToEnd(2_000);
    expect(rest.every((item) => item.kind === 'comment')).toBe(true);
    expect(reader.done).toBe(true);
  });
});

describe('Streamable HTTP: sessions.mode required', () => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startFixtureApp({ sessions: { mode: 'required' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('a non-initialize POST without a session id is 400; initialize opens one, which then works', async () => {
    const without = await post(server.url, rpc(1, 'tools/list'));
    expect(without.status).toBe(400);
    expect(without.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { message: expect.stringContaining('Mcp-Session-Id') } });

    const notificationWithout = await post(server.url, notification('notifications/initialized'));
    expect(notificationWithout.status).toBe(400);

    const { sessionId } = await openSession(server.url);
    const list = await post(server.url, rpc(2, 'tools/list'), { 'Mcp-Session-Id': sessionId });
    expect(list.status).toBe(200);
    expect(list.json.result.tools).toHaveLength(3);
  });

  it('GET without a session id and without Accept SSE is 400', async () => {
    const response = await get(server.url, { Accept: 'application/json' });
    expect(response.status).toBe(400);
  });
});

describe('Streamable HTTP: sessions.mode stateless', () => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startFixtureApp({ sessions: { mode: 'stateless' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('initialize gives no session header; calls work without one; GET and DELETE are 405', async () => {
    const init = await post(server.url, rpc(1, 'initialize', initializeParams()));
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();

    const call = await post(server.url, slowCall(2, 2, 0, 'tok'), { 'MCP-Protocol-Version': '2025-11-25' });
    expect(call.status).toBe(200);
    expect(call.messages.map((message) => message.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'response',
    ]);

    const getResponse = await get(server.url, { Accept: 'text/event-stream' });
    expect(getResponse.status).toBe(405);
    expect(getResponse.headers.get('allow')).toBe('POST');
    await getResponse.body?.cancel();
    const getWithSession = await get(server.url, { Accept: 'text/event-stream', 'Mcp-Session-Id': 'whatever' });
    expect(getWithSession.status).toBe(405);
    await getWithSession.body?.cancel();
    const deleteResponse = await fetch(server.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': 'whatever' } });
    expect(deleteResponse.status).toBe(405);
  });

  it('a stray session id is ignored (served statelessly)', async () => {
    const list = await post(server.url, rpc(1, 'tools/list'), { 'Mcp-Session-Id': 'not-a-session' });
    expect(list.status).toBe(200);
  });
});

describe('Streamable HTTP: shutdown with open streams', () => {
  /**
   * Closes the app while a client holds a stream open. Resolves with what happened within `withinMs`: whether
   * `app.close()` finished and what the client received after the close began. The client connection is dropped
   * afterwards in any case, so a hanging close still completes and the test cleans up.
   */
  async function closeWithOpenStream(server: RunningApp, reader: SseReader, controller: AbortController, withinMs = 3_000) {
    const closing = server.close();
    const outcome = await Promise.race([closing.then(() => 'closed' as const), sleep(withinMs).then(() => 'still closing' as const)]);
    let after: SseItem[] = [];
    if (outcome === 'closed') after = await reader.readToEnd(1_000).catch(() => []);
    controller.abort();
    await reader.cancel();
    await closing;
    return { outcome, endedWithRetryHint: after.some((item) => item.retry !== undefined) };
  }

  it('app.close() ends an open standalone GET stream (with a retry hint) and resolves', async () => {
    const server = await startFixtureApp({ http: { streams: { keepAliveMs: 100 } } });
    const { sessionId } = await openSession(server.url);
    const controller = new AbortController();
    const response = await get(server.url, { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream' }, controller.signal);
    expect(response.status).toBe(200);
    const reader = new SseReader(response);
    await reader.next(2_000);
    expect(await closeWithOpenStream(server, reader, controller)).toEqual({ outcome: 'closed', endedWithRetryHint: true });
  });

  it('app.close() ends an open 2024-11-05 HTTP+SSE stream and resolves', async () => {
    const server = await startFixtureApp({ http: { streams: { keepAliveMs: 100 } } });
    const controller = new AbortController();
    const response = await get(`${server.base}/sse`, { Accept: 'text/event-stream' }, controller.signal);
    const reader = new SseReader(response);
    expect((await reader.nextEvent())?.event).toBe('endpoint');
    expect(await closeWithOpenStream(server, reader, controller)).toEqual({ outcome: 'closed', endedWithRetryHint: true });
  });
});
