import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { McpResourceNotifier, McpResourceParams, McpResourceTemplate } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { McpStoredResourceSubscriptions } from '../../libs/mcp/src/features/resources/stored-resource-subscriptions.js';
import { McpStreamHub } from '../../libs/mcp/src/transports/streams/stream-hub.js';
import { instancesOnOneRedis } from './scaling-support.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { openSession, post, rpc, sessionHeaders } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';

/** Any URI under `odd://`: the storms below subscribe URIs with characters a store key or record could trip on. */
@Injectable()
class AnyResource {
  @McpResourceTemplate({ uriTemplate: 'odd://{+path}', name: 'any', description: 'Any path', mimeType: 'text/plain' })
  read(@McpResourceParams() params: { path: string }) {
    return params.path;
  }
}

/** Headers of a GET that opens the session's standalone stream. */
const getStreamHeaders = (sessionId: string) => ({
  Accept: 'text/event-stream',
  'Mcp-Session-Id': sessionId,
  'MCP-Protocol-Version': '2025-11-25',
});

const ODD = ['a:b:c', '100%25', '%7Bx%7D{{y}}', 'ünï/日本/🙂', 'lone-\ud800-surrogate', 'mcp:resource-subscriptions:other', 'sp ace\ttab'];

/** What a hostile or unlucky client does to the stored subscriptions of its sessions, on two instances. */
describe('stored resource subscriptions under storms and churn (two instances, one Redis)', () => {
  let raw: Redis;
  // Before the instances' afterAll, so it runs first: quit while Redis still answers.
  afterAll(async () => void (await raw?.quit()));
  const shared = instancesOnOneRedis({
    count: 2,
    start: (url) => listenMcp({ name: 'storms', version: '1.0.0', redis: { url }, http: { streams: { keepAliveMs: 200 } } }, [AnyResource]),
  });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(async () => {
    [a, b] = shared.apps;
    raw = new Redis(shared.redis.url, { retryStrategy: () => null }); // no reconnecting once Redis stops
  });

  const stored = async (sessionId: string): Promise<string[]> =>
    (JSON.parse((await raw.get(`mcp:resource-subscriptions:${sessionId}`)) ?? '{"uris":[]}') as { uris: string[] }).uris;

  async function subscribe(url: string, sessionId: string, uri: string, method = 'resources/subscribe') {
    return (await post(url, rpc(1, method, { uri }), sessionHeaders(sessionId, '2025-11-25'))).json as {
      result?: unknown;
      error?: unknown;
    };
  }

  it('concurrent subscribes and unsubscribes of many sessions on both instances: all answered {}, none lost', async () => {
    const sessions = await Promise.all(Array.from({ length: 6 }, () => openSession(a.url)));
    const uris = Array.from({ length: 24 }, (_, index) => `odd://${ODD[index % ODD.length]}/${index}`);
    const answers = await Promise.all(
      sessions.flatMap(({ sessionId }) =>
        uris.map(async (uri, index) => ({ sessionId, uri, answer: await subscribe(index % 2 ? b.url : a.url, sessionId, uri) })),
      ),
    );
    // Writes of one session queue on each instance: only the two instances race, and 8 attempts settle that
    // (before: 24 of these 144 answered UNAVAILABLE, -32000 with a retryable envelope).
    expect(answers.filter((each) => each.answer.result === undefined)).toEqual([]);
    for (const { sessionId } of sessions) expect((await stored(sessionId)).sort()).toEqual([...uris].sort()); // each once, text intact
    // An unsubscribe storm on one session, through both instances: nothing is left.
    const { sessionId } = sessions[0];
    const ends = await Promise.all(uris.map((uri, index) => subscribe(index % 2 ? a.url : b.url, sessionId, uri, 'resources/unsubscribe')));
    expect(ends.filter((answer) => answer.result === undefined)).toEqual([]);
    expect(await stored(sessionId)).toEqual([]);
  });

  it('a subscribe racing DELETE of its session leaves no record that outlives sessions.idleTtlMs', async () => {
    for (let round = 0; round < 5; round++) {
      const { sessionId } = await openSession(a.url);
      const racing = subscribe(b.url, sessionId, `odd://race/${round}`);
      await fetch(a.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' } });
      await racing;
      const ttl = await raw.pttl(`mcp:resource-subscriptions:${sessionId}`);
      // -2: gone; otherwise it must expire on its own, within the idle TTL (30 min by default).
      expect(ttl === -2 || (ttl > 0 && ttl <= 30 * 60_000)).toBe(true);
    }
  });

  it('GET streams opened and closed fast on alternating instances while changes are published: no duplicate, nothing left in memory', async () => {
    const { sessionId } = await openSession(a.url);
    const uri = 'odd://churn/{x}%25:ü';
    expect(await subscribe(a.url, sessionId, uri)).toMatchObject({ result: {} });
    const headers = getStreamHeaders(sessionId);
    let publishing = true;
    let opened = 0;
    const publisher = (async () => {
      for (let index = 0; publishing; index++) {
        (index % 2 ? b : a).app.get(McpResourceNotifier).resourceUpdated(uri);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    try {
      for (let round = 0; round < 30; round++) {
        const controller = new AbortController();
        const response = await fetch((round % 2 ? b : a).url, { headers, signal: controller.signal }).catch(() => undefined);
        if (response?.status === 200) {
          opened++;
          const reader = new SseReader(response);
          // Each update on one stream is one event with its own id: none sent twice.
          const ids = new Set<string>();
          for (let event = 0; event < 3; event++) {
            const item = await reader.nextEvent(2_000).catch(() => undefined);
            if (item?.id) {
              expect(ids.has(item.id)).toBe(false);
              ids.add(item.id);
            }
          }
          await reader.cancel().catch(() => undefined);
        } else if (response) {
          expect([409]).toContain(response.status); // the other instance's claim not released yet
          await response.body?.cancel();
        }
        controller.abort();
      }
    } finally {
      publishing = false;
      await publisher;
    }
    expect(opened).toBeGreaterThan(5); // the churn did open streams, on both instances in turn
    // Every stream closed: nothing of the session stays in either instance's memory, and its claim is released.
    await eventually(
      async () => {
        for (const instance of [a, b]) {
          const held = instance.app.get(McpStoredResourceSubscriptions) as unknown as Record<string, Map<string, unknown> | Set<string>>;
          const hub = instance.app.get(McpStreamHub) as unknown as Record<string, Map<string, unknown> | Set<string>>;
          const sizes = [held.watched, held.byUri, held.loading, hub.standalone, hub.held, hub.claiming].map((each) => each.size);
          if (sizes.some((size) => size > 0)) return false;
        }
        return (await raw.exists(`mcp:get-stream:${sessionId}`)) === 0;
      },
      5_000,
      'maps empty and claim released once every stream closed',
    );
  });

  it('an instance closed while it holds a GET stream leaves no interval of its own running', async () => {
    const c = await listenMcp(
      { name: 'storms', version: '1.0.0', redis: { url: shared.redis.url }, http: { streams: { keepAliveMs: 50 } } },
      [AnyResource],
    );
    const { sessionId } = await openSession(c.url);
    expect(await subscribe(c.url, sessionId, 'odd://closing')).toMatchObject({ result: {} });
    const headers = getStreamHeaders(sessionId);
    const response = await fetch(c.url, { headers });
    expect(response.status).toBe(200);
    const reader = new SseReader(response);
    await eventually(() => c.app.get(McpStoredResourceSubscriptions).urisHeldFor(sessionId).length === 1, 5_000, 'stream watching');
    // The claim's renewal and the record's renewal: both must be cleared by the close (unref'd, they would still fire).
    const hub = c.app.get(McpStreamHub) as unknown as { held: Map<string, { renewal: NodeJS.Timeout }> };
    const stored = c.app.get(McpStoredResourceSubscriptions) as unknown as { refreshTimer: NodeJS.Timeout };
    const running = new Set<unknown>([...[...hub.held.values()].map((session) => session.renewal), stored.refreshTimer]);
    expect(running.size).toBe(2);
    const realClear = global.clearInterval;
    global.clearInterval = ((timer?: NodeJS.Timeout) => (running.delete(timer), realClear(timer))) as typeof clearInterval;
    try {
      await c.close();
    } finally {
      global.clearInterval = realClear;
      await reader.cancel().catch(() => undefined);
    }
    expect(running.size).toBe(0);
  });

  it('a claim that lapsed while its stream was live and was taken by another instance: the old stream ends, one stream gets each update', async () => {
    const { sessionId } = await openSession(a.url);
    expect(await subscribe(a.url, sessionId, 'odd://lapse')).toMatchObject({ result: {} });
    const headers = getStreamHeaders(sessionId);
    const onA = new SseReader(await fetch(a.url, { headers }));
    await eventually(() => a.app.get(McpStoredResourceSubscriptions).urisHeldFor(sessionId).length === 1, 5_000, 'A watching');
    await raw.del(`mcp:get-stream:${sessionId}`); // lapsed: its renewals did not reach the store for three keep-alives
    const second = await fetch(b.url, { headers });
    expect(second.status).toBe(200);
    const onB = new SseReader(second);
    try {
      await eventually(() => b.app.get(McpStoredResourceSubscriptions).urisHeldFor(sessionId).length === 1, 5_000, 'B watching');
      // A's next renewal (every keepAliveMs, 200 ms here) finds B's claim: A ends its stream rather than run a second one.
      const drained = onA.readToEnd(10_000).catch(() => undefined);
      await eventually(() => onA.done, 5_000, "A's stream ended");
      await drained;
      await eventually(() => a.app.get(McpStoredResourceSubscriptions).urisHeldFor(sessionId).length === 0, 5_000, 'A let go');
      a.app.get(McpResourceNotifier).resourceUpdated('odd://lapse');
      for (;;) {
        const item = await onB.nextEvent(3_000);
        if (item?.data) break;
      }
      expect(await raw.get(`mcp:get-stream:${sessionId}`)).toContain(b.app.get(McpStreamHub)['lease'].id);
    } finally {
      await onA.cancel();
      await onB.cancel();
    }
  });

  it.each([
    ['the same instance', () => [a, a]],
    ['both instances', () => [a, b]],
  ])('two GET streams of one session opened at once on %s: one 200, one 409', async (_where, pick) => {
    const { sessionId } = await openSession(a.url);
    const headers = getStreamHeaders(sessionId);
    const responses = await Promise.all(pick().map((instance) => fetch(instance.url, { headers })));
    try {
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    } finally {
      for (const response of responses) await response.body?.cancel();
    }
  });
});
