import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { McpResource, McpResourceNotifier } from '@nest-mcp/core';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { eventually } from '../kit/eventually.js';
import { McpResourceSubscriptions } from '../../libs/mcp/src/features/resources/resource-subscriptions.js';
import { McpStoredResourceSubscriptions } from '../../libs/mcp/src/features/resources/stored-resource-subscriptions.js';
import { pubsubChannels } from './scaling-support.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { openSession, post, rpc, send, sessionHeaders } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';

const WATCHED = 'test://watched';
const UPDATED = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: WATCHED } };

@Injectable()
class WatchedResource {
  @McpResource({ uri: WATCHED, name: 'watched', description: 'A resource clients subscribe to', mimeType: 'text/plain' })
  read() {
    return 'v1';
  }
}

function startInstance(redisUrl: string): Promise<RunningApp> {
  return listenMcp({ name: 'watch', version: '1.0.0', redis: { url: redisUrl } }, [WatchedResource]);
}

/** The session's GET stream on one instance, open once that instance takes the session's notifications. */
async function openGetStream(redisUrl: string, url: string, sessionId: string): Promise<{ reader: SseReader; close(): Promise<void> }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = new SseReader(response);
  await eventually(
    async () => (await pubsubChannels(redisUrl, 'mcp:route:*')).includes(`mcp:route:session-stream:${sessionId}`),
    5_000,
    'GET stream route held',
  );
  return {
    reader,
    close: async () => {
      await reader.cancel().catch(() => undefined);
      controller.abort();
    },
  };
}

/** The next `notifications/resources/updated` on the stream (skipping keep-alives). */
async function nextUpdate(reader: SseReader): Promise<unknown> {
  for (;;) {
    const event = await reader.nextEvent();
    if (event?.data) return JSON.parse(event.data);
    if (!event) throw new Error('GET stream ended');
  }
}

/** Nothing more arrives on the stream for a while (a duplicate would). */
async function expectNothingMore(reader: SseReader): Promise<void> {
  await expect(reader.nextEvent(500)).rejects.toThrow(/no SSE item/);
}

async function subscribe(url: string, sessionId: string, method = 'resources/subscribe'): Promise<void> {
  const answer = await post(url, rpc(2, method, { uri: WATCHED }), sessionHeaders(sessionId, '2025-11-25'));
  expect(answer.json).toMatchObject({ result: {} });
}

describe('resource subscriptions outlive the instance that took them (redis)', () => {
  let redis: RedisServerHandle;
  let raw: Redis;
  let a: RunningApp;
  let b: RunningApp;
  const streams: Array<{ close(): Promise<void> }> = [];

  const notifier = (instance: RunningApp) => instance.app.get(McpResourceNotifier);
  const storedKey = (sessionId: string) => `mcp:resource-subscriptions:${sessionId}`;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await raw.connect();
  });

  beforeEach(async () => {
    a = await startInstance(redis.url);
    b = await startInstance(redis.url);
  });

  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
    await a?.close();
    await b?.close();
  });

  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  it('subscribed through A, A closed, GET stream on B, changed on B: the client gets the update once', async () => {
    const { sessionId } = await openSession(a.url);
    await subscribe(a.url, sessionId);
    await a.close();

    const stream = await openGetStream(redis.url, b.url, sessionId);
    streams.push(stream);
    // B reads the session's subscriptions from the store when the GET stream opens: a change on B then reaches it.
    await eventually(() => notifier(b).resourceUpdated(WATCHED) === 1, 5_000, 'B delivers to the GET stream it holds');
    expect(await nextUpdate(stream.reader)).toEqual(UPDATED);
    await expectNothingMore(stream.reader);
  });

  it('subscribed through A, whose memory holds nothing of it: A going away (its GET stream cut too) loses nothing', async () => {
    const { sessionId } = await openSession(a.url);
    const onA = await openGetStream(redis.url, a.url, sessionId);
    streams.push(onA);
    await subscribe(a.url, sessionId);
    // Nothing a crash could lose: A keeps no connection-bound subscription for the session, the record is in Redis.
    expect(a.app.get(McpResourceSubscriptions).urisOf(`http:${sessionId}`)).toEqual([]);
    expect(JSON.parse((await raw.get(storedKey(sessionId)))!)).toMatchObject({ uris: [WATCHED] });
    await a.close(); // ends A's GET stream, as a crash would; nothing is unsubscribed on the way
    await onA.close();

    const onB = await openGetStream(redis.url, b.url, sessionId);
    streams.push(onB);
    await eventually(() => notifier(b).resourceUpdated(WATCHED) === 1, 5_000, 'B delivers to the reconnected GET stream');
    expect(await nextUpdate(onB.reader)).toEqual(UPDATED);
    await expectNothingMore(onB.reader);
  });

  it('A and B up, GET stream on B: a change on A and one on B each reach the client once', async () => {
    const { sessionId } = await openSession(a.url);
    const stream = await openGetStream(redis.url, b.url, sessionId);
    streams.push(stream);
    await subscribe(a.url, sessionId);

    // A holds no GET stream: it reaches nobody itself; B, which holds it, hears of the change over the bus.
    expect(notifier(a).resourceUpdated(WATCHED)).toBe(0);
    expect(await nextUpdate(stream.reader)).toEqual(UPDATED);
    await expectNothingMore(stream.reader);

    expect(notifier(b).resourceUpdated(WATCHED)).toBe(1);
    expect(await nextUpdate(stream.reader)).toEqual(UPDATED);
    await expectNothingMore(stream.reader);
  });

  it('subscribed through A, unsubscribed through B: no more notifications, wherever the change or the GET stream is', async () => {
    const { sessionId } = await openSession(a.url);
    const stream = await openGetStream(redis.url, a.url, sessionId);
    streams.push(stream);
    await subscribe(a.url, sessionId);
    expect(notifier(b).resourceUpdated(WATCHED)).toBe(0);
    expect(await nextUpdate(stream.reader)).toEqual(UPDATED);

    await subscribe(b.url, sessionId, 'resources/unsubscribe');
    // A, which holds the GET stream, hears of it over the bus.
    await eventually(() => a.app.get(McpStoredResourceSubscriptions).urisHeldFor(sessionId).length === 0, 5_000, 'A forgets it');
    expect(JSON.parse((await raw.get(storedKey(sessionId)))!)).toMatchObject({ uris: [] });
    expect(notifier(a).resourceUpdated(WATCHED)).toBe(0);
    expect(notifier(b).resourceUpdated(WATCHED)).toBe(0);
    await expectNothingMore(stream.reader);
  });

  it('session DELETE: its stored subscriptions are gone from Redis', async () => {
    const { sessionId } = await openSession(a.url);
    await subscribe(a.url, sessionId);
    expect(await raw.exists(storedKey(sessionId))).toBe(1);
    const ttl = await raw.pttl(storedKey(sessionId));
    expect(ttl).toBeGreaterThan(0); // expires with an idle session (sessions.idleTtlMs)

    const deleted = await send(b.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' } });
    expect(deleted.status).toBeLessThan(300);
    await eventually(async () => (await raw.exists(storedKey(sessionId))) === 0, 5_000, 'stored subscriptions deleted');
  });
});
