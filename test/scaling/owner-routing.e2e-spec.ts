import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceNotifier } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { McpInstanceLease } from '../../libs/mcp/src/sessions/mcp-instance-lease.service.js';
import { MCP_STORE, type McpKeyValueStore } from '../../libs/mcp/src/stores/key-value.store.js';
import { subscriptionsKey, type StoredSubscriptions } from '../../libs/mcp/src/features/resources/stored-resource-subscriptions.js';
import { StreamingTools, resetFixtureEvents, waitForFixtureEvent } from '../fixtures/streaming-tools.module.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { notification, openSession, post, postStream, rpc, sessionHeaders } from '../kit/http.js';
import { messagesOf, SseReader, type SseItem } from '../kit/sse.js';
import { instancesOnOneRedis, onInstance, openSseSession, postToSseSession, pubsubChannels } from './scaling-support.js';

const WATCHED = 'test://watched';

@Injectable()
class WatchedResource {
  @McpResource({ uri: WATCHED, name: 'watched', description: 'A resource clients subscribe to', mimeType: 'text/plain' })
  read() {
    return 'v1';
  }
}

/** A short lease, so a stopped instance counts as dead within a second. */
const LEASE = { ttlMs: 1_000, renewMs: 300 };

function startInstance(redisUrl: string): Promise<RunningApp> {
  return listenMcp({ name: 'owners', version: '1.0.0', redis: { url: redisUrl, instanceLease: LEASE } }, [StreamingTools, WatchedResource]);
}

/**
 * Two instances on one Redis, no sticky sessions: what a client sends to B reaches the instance that owns the
 * call, the subscription or the stream (A), and what A held dies with A's lease.
 */
describe('routing to the owning instance', () => {
  const shared = instancesOnOneRedis({ count: 2, start: startInstance });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));
  const open: AbortController[] = [];

  afterEach(() => {
    for (const controller of open.splice(0)) controller.abort();
    resetFixtureEvents();
  });

  function getStream(app: RunningApp, sessionId: string, extra: Record<string, string> = {}): Promise<Response> {
    const controller = new AbortController();
    open.push(controller);
    return fetch(app.url, {
      headers: { Accept: 'text/event-stream', ...sessionHeaders(sessionId, '2025-11-25'), ...extra } as Record<string, string>,
      signal: controller.signal,
    });
  }

  it('notifications/cancelled POSTed to B aborts the call running on A', async () => {
    const { sessionId } = await openSession(a.url);
    const headers = sessionHeaders(sessionId, '2025-11-25');
    const controller = new AbortController();
    open.push(controller);
    const call = postStream(a.url, rpc('c1', 'tools/call', { name: 'wait_for_abort', arguments: {} }), headers, controller.signal);
    await waitForFixtureEvent((event) => event.type === 'started' && event.requestId === 'c1' && event.sessionId === sessionId);

    const cancelled = await post(b.url, notification('notifications/cancelled', { requestId: 'c1', reason: 'changed my mind' }), headers);
    expect(cancelled.status).toBe(202);
    // Well before the tool's own 5 s safety timeout.
    const aborted = await waitForFixtureEvent((event) => event.type === 'aborted' && event.requestId === 'c1', 3_000);
    expect(aborted.sessionId).toBe(sessionId);
    expect(aborted.reason).toContain('changed my mind');
    // A cancelled request gets no answer (spec): the POST ends with a 202 or an empty stream.
    expect([200, 202]).toContain((await call).status);
  });

  it('resources/unsubscribe sent to B ends the subscription made through A', async () => {
    const { sessionId } = await openSession(a.url);
    const headers = sessionHeaders(sessionId, '2025-11-25');
    expect((await post(a.url, rpc(2, 'resources/subscribe', { uri: WATCHED }), headers)).json).toMatchObject({ result: {} });
    // With redis, a Streamable HTTP session's subscriptions are in the shared store, not in A's memory.
    const store = a.app.get<McpKeyValueStore>(MCP_STORE);
    const stored = async () => (await store.get<StoredSubscriptions>(subscriptionsKey(sessionId)))?.uris;
    expect(await stored()).toEqual([WATCHED]);

    expect((await post(b.url, rpc(3, 'resources/unsubscribe', { uri: WATCHED }), headers)).json).toMatchObject({ result: {} });
    expect(await stored()).toEqual([]);
    expect(a.app.get(McpResourceNotifier).resourceUpdated(WATCHED)).toBe(0);
  });

  it('one GET stream per session across instances: a second on B gets 409 until the one on A ends', async () => {
    const { sessionId } = await openSession(a.url);
    // Two at once on A: one is opened, the other refused (the claim takes a store round trip).
    const both = await Promise.all([getStream(a, sessionId), getStream(a, sessionId)]);
    expect(both.map((response) => response.status).sort()).toEqual([200, 409]);
    await both.find((response) => response.status === 409)!.body?.cancel();
    await eventually(
      async () => (await pubsubChannels(shared.redis.url, 'mcp:route:*')).includes(`mcp:route:session-stream:${sessionId}`),
      5_000,
      'GET stream held on A',
    );
    const second = await getStream(b, sessionId);
    expect(second.status).toBe(409);
    await second.body?.cancel();

    open.splice(0).forEach((controller) => controller.abort());
    await eventually(
      async () => {
        const again = await getStream(b, sessionId);
        await again.body?.cancel();
        return again.status === 200;
      },
      5_000,
      'GET on B once the stream on A ended',
    );
  });

  it('GET with Last-Event-ID on B continues a POST stream still live on A, to its response', async () => {
    const { sessionId } = await openSession(a.url);
    const headers = sessionHeaders(sessionId, '2025-11-25');
    const controller = new AbortController();
    const call = rpc('r1', 'tools/call', { name: 'slow_count', arguments: { steps: 6, delayMs: 250 }, _meta: { progressToken: 'tok-r1' } });
    const response = await postStream(a.url, call, headers, controller.signal);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = new SseReader(response);
    const received: SseItem[] = [];
    while (received.length < 2) received.push((await reader.nextEvent())!);
    controller.abort(); // the client's connection to A drops; the call goes on there
    await reader.cancel().catch(() => undefined);

    const resumed = await getStream(b, sessionId, { 'Last-Event-ID': received[1].id! });
    expect(resumed.status).toBe(200);
    const rest = await new SseReader(resumed).readToEnd(10_000);
    const all = [...messagesOf(received), ...messagesOf(rest)];
    expect(all.filter((message) => message.method === 'notifications/progress').map((message) => message.params.progress)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    const ids = [...received, ...rest].filter((item) => item.id).map((item) => Number(item.id!.slice(item.id!.lastIndexOf('.') + 1)));
    expect(ids).toEqual(ids.map((_, index) => index)); // one stream, no gap, no repeat
    expect(all.filter((message) => 'result' in message)).toEqual([
      expect.objectContaining({ id: 'r1', result: expect.objectContaining({ isError: false }) }),
    ]);
    // The follow ended with the stream: no subscription to its events is left on Redis.
    await eventually(
      async () => (await pubsubChannels(shared.redis.url, 'mcp:route:stream-events:*')).length === 0,
      5_000,
      'follow released',
    );
  });

  describe('once A stops renewing its lease (as if it died)', () => {
    it('B answers 404 for A’s 2024-11-05 session and for a stream still live on A', async () => {
      const legacy = await openSseSession(a.base);
      const onB = onInstance(legacy.endpoint, b.base);
      expect((await postToSseSession(onB, rpc(1, 'ping'))).status).toBe(202);
      expect(await legacy.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });

      const { sessionId } = await openSession(a.url);
      const headers = sessionHeaders(sessionId, '2025-11-25');
      const controller = new AbortController();
      open.push(controller);
      const call = rpc('r2', 'tools/call', { name: 'slow_count', arguments: { steps: 20, delayMs: 500 }, _meta: { progressToken: 't' } });
      const reader = new SseReader(await postStream(a.url, call, headers, controller.signal));
      const priming = (await reader.nextEvent())!;

      await a.app.get(McpInstanceLease).onApplicationShutdown(); // no more renewals; the lease is gone
      await eventually(async () => (await postToSseSession(onB, rpc(2, 'ping'))).status === 404, LEASE.ttlMs + 1_000, 'legacy 404');
      const resumed = await getStream(b, sessionId, { 'Last-Event-ID': priming.id! });
      expect(resumed.status).toBe(404);
      expect(await resumed.json()).toMatchObject({ error: { message: expect.stringContaining('Session not found') } });
      await legacy.close();
    });
  });
});
