import { jest } from '@jest/globals';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { McpMessageBus } from '../../core/message-bus.interface.js';
import type { McpSessionStreams } from '../../core/session-streams.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { McpStoreUnavailableError } from '../../core/errors/store-unavailable.error.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpSessionService } from '../../sessions/mcp-session.service.js';
import { McpMemoryBus } from '../../stores/memory-message.bus.js';
import { McpMemoryStore } from '../../stores/memory.store.js';
import type { McpKeyValueStore } from '../../stores/key-value.store.js';
import { eventually } from '../../../../../test/kit/eventually.js';
import { MAX_SUBSCRIPTIONS_PER_SUBSCRIBER } from './resource-subscription.limits.js';
import { McpStoredResourceSubscriptions, subscriptionsKey, type StoredSubscriptions } from './stored-resource-subscriptions.js';

const UPDATED: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://a' } };
const OPTIONS = { sessions: { idleTtlMs: 60_000 } } as unknown as McpResolvedOptions;

/** One process's bus, presented as one that crosses instances: the services below play two instances on it. */
function sharedBus(inner = new McpMemoryBus()): McpMessageBus {
  return {
    crossesInstances: true,
    publish: (channel, message) => inner.publish(channel, message),
    subscribe: (c, h) => inner.subscribe(c, h),
  };
}

/** One instance: its GET streams (opened and closed by the test), what they received, and its session ends. */
function instance(store: McpKeyValueStore, bus: McpMessageBus | undefined, options = OPTIONS) {
  const open = new Set<string>();
  const received: Array<[string, JsonRpcMessage]> = [];
  let streamListener: (sessionId: string, open: boolean) => void = () => undefined;
  let endListener: (sessionId: string) => void = () => undefined;
  const streams = {
    notifyHere: (sessionId: string, message: JsonRpcMessage) => open.has(sessionId) && received.push([sessionId, message]) > 0,
    onStandaloneStream: (listener: typeof streamListener) => (streamListener = listener),
  } as unknown as McpSessionStreams;
  const sessions = { onEnd: (listener: typeof endListener) => (endListener = listener) } as unknown as McpSessionService;
  const subscriptions = new McpStoredResourceSubscriptions(store, streams, options, sessions, bus);
  return {
    subscriptions,
    received,
    openStream: (sessionId: string) => (open.add(sessionId), streamListener(sessionId, true)),
    closeStream: (sessionId: string) => (open.delete(sessionId), streamListener(sessionId, false)),
    endSession: (sessionId: string) => endListener(sessionId),
  };
}

describe('McpStoredResourceSubscriptions', () => {
  let store: McpMemoryStore;
  let bus: McpMessageBus;
  let a: ReturnType<typeof instance>;
  let b: ReturnType<typeof instance>;

  beforeEach(async () => {
    store = new McpMemoryStore();
    bus = sharedBus();
    a = instance(store, bus);
    b = instance(store, bus);
    await a.subscriptions.onApplicationBootstrap();
    await b.subscriptions.onApplicationBootstrap();
  });

  afterEach(async () => {
    await a.subscriptions.onApplicationShutdown();
    await b.subscriptions.onApplicationShutdown();
  });

  it('is off on a single instance, and covers only Streamable HTTP requests with a session', () => {
    const alone = instance(store, new McpMemoryBus()).subscriptions;
    const http: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25', sessionId: 's1' };
    expect(alone.enabled).toBe(false);
    expect(alone.sessionOf(http)).toBeUndefined();
    expect(instance(store, undefined).subscriptions.enabled).toBe(false);
    expect(a.subscriptions.sessionOf(http)).toBe('s1');
    expect(a.subscriptions.sessionOf({ ...http, sessionId: undefined })).toBeUndefined();
    expect(a.subscriptions.sessionOf({ ...http, transport: 'sse' })).toBeUndefined();
  });

  it('delivers at the instance holding the GET stream, which reads the record when the stream opens', async () => {
    expect(await a.subscriptions.subscribe('s1', 'test://a')).toBe(true);
    expect((await store.get<StoredSubscriptions>(subscriptionsKey('s1')))?.uris).toEqual(['test://a']);
    expect(a.subscriptions.deliver('test://a', UPDATED)).toBe(0); // no GET stream anywhere yet

    b.openStream('s1');
    await eventually(() => b.subscriptions.urisHeldFor('s1').length === 1, 1_000, 'B loaded the record');
    expect(a.subscriptions.deliver('test://a', UPDATED)).toBe(0);
    expect(b.subscriptions.deliver('test://a', UPDATED)).toBe(1);
    expect(b.received).toEqual([['s1', UPDATED]]);

    b.closeStream('s1');
    expect(b.subscriptions.deliver('test://a', UPDATED)).toBe(0);
  });

  it('follows subscribes and unsubscribes made on other instances while the GET stream is open', async () => {
    b.openStream('s1');
    await a.subscriptions.subscribe('s1', 'test://a');
    await a.subscriptions.subscribe('s1', 'test://b');
    await eventually(() => b.subscriptions.urisHeldFor('s1').length === 2, 1_000, 'B heard both');
    await a.subscriptions.unsubscribe('s1', 'test://a');
    await eventually(() => b.subscriptions.urisHeldFor('s1').length === 1, 1_000, 'B heard the unsubscribe');
    expect(b.subscriptions.urisHeldFor('s1')).toEqual(['test://b']);
    // The instance holding the stream knows its own writes at once (a change right after the answer reaches it).
    await b.subscriptions.subscribe('s1', 'test://c');
    expect(b.subscriptions.deliver('test://c', UPDATED)).toBe(1);
  });

  it('a change published while the GET stream is reading its record reaches the stream once the record is read', async () => {
    await a.subscriptions.subscribe('s1', 'test://a');
    // B's store answers the read only when the test lets it: the change below lands between opening and reading.
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const slowStore = Object.create(store) as McpKeyValueStore;
    slowStore.get = async <T>(key: string) => {
      await held;
      return store.get<T>(key);
    };
    const c = instance(slowStore, bus);
    await c.subscriptions.onApplicationBootstrap();
    try {
      c.openStream('s1');
      expect(c.subscriptions.deliver('test://a', UPDATED)).toBe(0);
      expect(c.subscriptions.deliver('test://other', UPDATED)).toBe(0);
      answer();
      await eventually(() => c.received.length === 1, 1_000, 'the held change delivered');
      expect(c.received).toEqual([['s1', UPDATED]]); // once, and nothing for the URI the session does not watch
      expect(c.subscriptions.deliver('test://a', UPDATED)).toBe(1);
    } finally {
      await c.subscriptions.onApplicationShutdown();
    }
  });

  /** An instance whose store answers `get` (or `touch`) only when the test lets it, in order. */
  function heldInstance(operation: 'get' | 'touch') {
    const waiting: Array<() => void> = [];
    const slowStore = Object.create(store) as McpKeyValueStore;
    const original = store[operation].bind(store) as (...args: unknown[]) => Promise<unknown>;
    (slowStore as unknown as Record<string, unknown>)[operation] = async (...args: unknown[]) => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return original(...args);
    };
    return { ...instance(slowStore, bus), waiting, answer: () => waiting.shift()?.() };
  }

  it('a GET stream closed and opened again while its first read is pending still holds the changes published during its own read', async () => {
    await a.subscriptions.subscribe('s1', 'test://a');
    const c = heldInstance('get');
    await c.subscriptions.onApplicationBootstrap();
    try {
      c.openStream('s1');
      c.closeStream('s1');
      c.openStream('s1');
      await eventually(() => c.waiting.length === 2, 1_000, 'both reads pending');
      c.answer(); // the first stream's read ends: it must not take the second stream's place in the queue of held changes
      await new Promise((resolve) => setImmediate(resolve));
      expect(c.subscriptions.deliver('test://a', UPDATED)).toBe(0); // published while the second read is pending
      c.answer();
      await eventually(() => c.received.length === 1, 1_000, 'the held change delivered');
      expect(c.received).toEqual([['s1', UPDATED]]);
    } finally {
      await c.subscriptions.onApplicationShutdown();
    }
  });

  it('a subscribe announced late, during a re-read that already saw its unsubscribe, is not kept', async () => {
    const c = heldInstance('touch');
    await c.subscriptions.onApplicationBootstrap();
    const announce = (change: Record<string, unknown>) => bus.publish('resources:subscriptions', { sessionId: 's1', ...change });
    try {
      c.openStream('s1');
      await eventually(() => c.subscriptions.urisHeldFor('s1').length === 0, 1_000, 'nothing to read yet');
      // Two writes on other instances: v5 subscribed test://x, v6 unsubscribed it; their announcements arrive in reverse.
      await store.set(subscriptionsKey('s1'), { version: 6, uris: ['test://kept'] } satisfies StoredSubscriptions, 60_000);
      await announce({ uri: 'test://x', watching: false, previous: 5, version: 6 });
      await eventually(() => c.waiting.length === 1, 1_000, 'v6 read, its renewal pending');
      await announce({ uri: 'test://x', watching: true, previous: 4, version: 5 });
      await eventually(() => c.subscriptions.urisHeldFor('s1').includes('test://x'), 1_000, 'v5 taken at once during the read');
      c.answer();
      await eventually(() => c.waiting.length === 1, 1_000, 'read again, renewal pending');
      c.answer();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(c.subscriptions.urisHeldFor('s1')).toEqual(['test://kept']);
    } finally {
      await c.subscriptions.onApplicationShutdown();
    }
  });

  it('reads the record again when it misses a change (announcements lost or out of order)', async () => {
    b.openStream('s1');
    // Written behind the bus's back, then one announced change whose predecessor B never heard of.
    await store.set(subscriptionsKey('s1'), { version: 10, uris: ['test://hidden'] }, 60_000);
    await a.subscriptions.subscribe('s1', 'test://a');
    await eventually(() => b.subscriptions.urisHeldFor('s1').length === 2, 1_000, 'B read the record again');
    expect([...b.subscriptions.urisHeldFor('s1')].sort()).toEqual(['test://a', 'test://hidden']);
  });

  it(`refuses more than ${MAX_SUBSCRIPTIONS_PER_SUBSCRIBER} URIs per session, re-subscribing is fine`, async () => {
    const full: StoredSubscriptions = {
      version: 1,
      uris: Array.from({ length: MAX_SUBSCRIPTIONS_PER_SUBSCRIBER }, (_, index) => `test://r/${index}`),
    };
    await store.set(subscriptionsKey('s1'), full, 60_000);
    expect(await a.subscriptions.subscribe('s1', 'test://one-too-many')).toBe(false);
    expect(await a.subscriptions.subscribe('s1', 'test://r/0')).toBe(true);
    expect(await a.subscriptions.subscribe('s2', 'test://one-too-many')).toBe(true);
  });

  it('deletes the record when the session ends, and the GET stream holder stops delivering', async () => {
    b.openStream('s1');
    await a.subscriptions.subscribe('s1', 'test://a');
    await eventually(() => b.subscriptions.urisHeldFor('s1').length === 1, 1_000, 'B heard it');
    a.endSession('s1');
    await eventually(async () => (await store.get(subscriptionsKey('s1'))) === undefined, 1_000, 'record deleted');
    await eventually(() => b.subscriptions.deliver('test://a', UPDATED) === 0, 1_000, 'B forgot it');
  });

  it('drops the subscriptions of a resource removed at runtime, here and in records read later', async () => {
    b.openStream('s1');
    await b.subscriptions.subscribe('s1', 'test://gone');
    await b.subscriptions.subscribe('s1', 'test://kept');
    expect(b.subscriptions.dropUnserved((uri) => uri !== 'test://gone')).toBe(1);
    expect(b.subscriptions.urisHeldFor('s1')).toEqual(['test://kept']);
    b.closeStream('s1');
    b.openStream('s1');
    await eventually(() => b.subscriptions.urisHeldFor('s1').length === 1, 1_000, 'reloaded');
    expect(b.subscriptions.urisHeldFor('s1')).toEqual(['test://kept']);
  });

  it('keeps the record alive while the GET stream holding subscriptions is open, and only then', async () => {
    const clock = { now: 1_000_000 };
    const timed = new McpMemoryStore(100_000, 30_000, () => clock.now);
    const ttl = 100;
    const options = { sessions: { idleTtlMs: ttl } } as unknown as McpResolvedOptions;
    const holder = instance(timed, bus, options);
    await holder.subscriptions.onApplicationBootstrap();
    try {
      holder.openStream('s1');
      holder.openStream('s2'); // watches nothing: nothing to keep alive
      await holder.subscriptions.subscribe('s1', 'test://a');
      const touched = jest.spyOn(timed, 'touch');
      clock.now += ttl - 1;
      await eventually(() => touched.mock.calls.length > 0, 2_000, 'renewed at half the TTL');
      expect(new Set(touched.mock.calls.map(([key]) => key))).toEqual(new Set([subscriptionsKey('s1')]));
      clock.now += ttl - 1; // past the first expiry: alive thanks to the renewal
      expect(await timed.get(subscriptionsKey('s1'))).toMatchObject({ uris: ['test://a'] });

      holder.closeStream('s1');
      touched.mockClear();
      await new Promise((resolve) => setTimeout(resolve, ttl));
      expect(touched).not.toHaveBeenCalled();
      clock.now += ttl;
      expect(await timed.get(subscriptionsKey('s1'))).toBeUndefined(); // expires with the idle session
    } finally {
      await holder.subscriptions.onApplicationShutdown();
    }
  });

  it('a write that loses a dozen compare-and-set races in a row to other instances still lands', async () => {
    // Another instance writing the same session's record between this one's read and its compare-and-set, 12 times
    // (two busy instances on a loaded machine did that to 1 in 144 subscribes, answered UNAVAILABLE after 8 losses).
    let losses = 12;
    const contended = Object.create(store) as McpKeyValueStore;
    contended.compareAndSet = async (key, expected, next, ttlMs) => {
      if (losses-- > 0) {
        const held = await store.get<StoredSubscriptions>(key);
        await store.set(key, { version: (held?.version ?? 0) + 1, uris: held?.uris ?? [] }, ttlMs);
      }
      return store.compareAndSet(key, expected, next, ttlMs);
    };
    const busy = instance(contended, bus).subscriptions;
    await expect(busy.subscribe('s1', 'test://a')).resolves.toBe(true);
    expect((await store.get<StoredSubscriptions>(subscriptionsKey('s1')))?.uris).toEqual(['test://a']);
  });

  it('rejects with McpStoreUnavailableError when the store cannot be reached (a retryable answer)', async () => {
    const down = new McpStoreUnavailableError('Redis down');
    const failing = { get: () => Promise.reject(down) } as unknown as McpKeyValueStore;
    const broken = instance(failing, bus).subscriptions;
    await expect(broken.subscribe('s1', 'test://a')).rejects.toBe(down);
    await expect(broken.unsubscribe('s1', 'test://a')).rejects.toBe(down);
  });
});
