import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { McpRedisBus } from './redis-message.bus.js';
import { McpRedisStore } from './redis.store.js';
import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';
import { eventually } from '../../../../test/kit/eventually.js';
import { monitorWhile } from '../../../../test/kit/redis-monitor.js';
import { startRedisServer, type RedisServerHandle } from '../../../../test/kit/redis-server.harness.js';

/** A logger that records instead of printing. */
function quietLogger() {
  return {
    log: jest.fn<(message: string) => void>(),
    warn: jest.fn<(message: string) => void>(),
    error: jest.fn<(message: string) => void>(),
  };
}

/** Rejects if `promise` has not settled within `ms`: an operation during an outage must fail, not hang. */
function within<T>(promise: Promise<T>, ms = 3_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves once `operation` succeeds (Redis is back and the client reconnected). */
async function succeedsAgain(operation: () => Promise<unknown>): Promise<void> {
  await eventually(
    () =>
      operation().then(
        () => true,
        () => false,
      ),
    15_000,
    'reconnection',
  );
}

describe('McpRedisStore and McpRedisBus on a real redis-server', () => {
  let server: RedisServerHandle;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    server = await startRedisServer();
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await server.stop();
  });

  async function store(options: { keyPrefix?: string } = {}, logger = quietLogger()) {
    const created = await McpRedisStore.connect({ url: server.url, ...options }, logger);
    closers.push(() => created.close());
    return created;
  }

  async function bus(logger = quietLogger()) {
    const created = await McpRedisBus.connect({ url: server.url }, logger);
    closers.push(() => created.close());
    return created;
  }

  it('puts every key under the prefix (mcp: by default)', async () => {
    const raw = await store({ keyPrefix: '' });
    await (await store()).set('session:1', { a: 1 }, 60_000);
    await (await store({ keyPrefix: 'tenant-b:' })).append('events', 'e', 10, 60_000);
    expect(await raw.get('mcp:session:1')).toEqual({ a: 1 });
    expect(await raw.list('tenant-b:events')).toEqual(['e']);
    expect(await raw.get('session:1')).toBeUndefined();
  });

  it('buses with different prefixes do not hear each other (pub/sub ignores the database number)', async () => {
    const logger = quietLogger();
    const a = await McpRedisBus.connect({ url: server.url, keyPrefix: 'a:' }, logger);
    const b = await McpRedisBus.connect({ url: server.url, keyPrefix: 'b:' }, logger);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const heardByB: unknown[] = [];
    const sentinel: unknown[] = [];
    await b.subscribe('ch', (message) => heardByB.push(message));
    await b.subscribe('sentinel', (message) => sentinel.push(message));
    await a.publish('ch', 'from a');
    await b.publish('sentinel', 'done');
    await eventually(() => sentinel.length === 1);
    expect(heardByB).toEqual([]);
  });

  it('rejects every operation with McpStoreUnavailableError while Redis is down, then works again on the same port', async () => {
    const logger = quietLogger();
    const redis = await store({}, logger);
    await redis.set('before', 1, 60_000);
    await server.stop();

    const operations: (() => Promise<unknown>)[] = [
      () => redis.get('before'),
      () => redis.set('k', 1, 60_000),
      () => redis.setIfAbsent('k', 1, 60_000),
      () => redis.compareAndSet('k', undefined, 1, 60_000),
      () => redis.increment('c', 60_000),
      () => redis.append('l', 1, 10, 60_000),
      () => redis.list('l'),
      () => redis.delete('k'),
    ];
    for (const operation of operations) {
      const failure = within(operation());
      await expect(failure).rejects.toBeInstanceOf(McpStoreUnavailableError);
      await expect(failure).rejects.toMatchObject({ name: 'McpStoreUnavailableError', retryable: true });
    }
    // Many failed operations and reconnect attempts, one notice.
    await eventually(() => logger.warn.mock.calls.length > 0);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toContain(server.url);

    server = await startRedisServer({ port: server.port });
    await succeedsAgain(() => redis.set('after', 2, 60_000));
    expect(await redis.get('after')).toBe(2);
    expect(await redis.increment('c', 60_000)).toBe(1);
    await eventually(() => logger.log.mock.calls.length === 1);
    expect(logger.log.mock.calls[0][0]).toMatch(/back/);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('logs once per outage: a second outage is logged again', async () => {
    const logger = quietLogger();
    const redis = await store({}, logger);
    for (let outage = 1; outage <= 2; outage++) {
      await server.stop();
      await expect(within(redis.get('k'))).rejects.toBeInstanceOf(McpStoreUnavailableError);
      server = await startRedisServer({ port: server.port });
      await succeedsAgain(() => redis.get('k'));
      expect(logger.warn).toHaveBeenCalledTimes(outage);
    }
  });

  it('the bus fails publish during an outage and resubscribes when Redis is back', async () => {
    const subscriber = await bus();
    const publisher = await bus();
    const received: unknown[] = [];
    await subscriber.subscribe('stream:1', (message) => received.push(message));
    await server.stop();
    await expect(within(publisher.publish('stream:1', 'lost'))).rejects.toBeInstanceOf(McpStoreUnavailableError);

    server = await startRedisServer({ port: server.port });
    // Publishing succeeds once the publisher is back; delivery, once the subscriber has resubscribed.
    await eventually(
      async () => {
        await publisher.publish('stream:1', 'ping').catch(() => undefined);
        return received.length > 0;
      },
      15_000,
      'resubscription',
    );
    expect(received.every((message) => message === 'ping')).toBe(true);
  });

  it('fails fast at connect when nothing listens, naming redis.url without its password', async () => {
    const url = server.url.replace('redis://', 'redis://:hunter2@');
    await server.stop();
    const failure = within(McpRedisStore.connect({ url }, quietLogger()), 10_000);
    await expect(failure).rejects.toBeInstanceOf(McpStoreUnavailableError);
    await expect(failure).rejects.toThrow(/redis\.url/);
    await expect(failure).rejects.not.toThrow(/hunter2/);
    await expect(within(McpRedisBus.connect({ url }, quietLogger()), 10_000)).rejects.toBeInstanceOf(McpStoreUnavailableError);
  });

  it('a command error (WRONGTYPE) is not mistaken for an outage', async () => {
    const redis = await store();
    await redis.set('v', 1, 60_000);
    const failure = redis.list('v');
    await expect(failure).rejects.toThrow(/WRONGTYPE/);
    await expect(failure).rejects.not.toBeInstanceOf(McpStoreUnavailableError);
  });

  describe('lists (append / list)', () => {
    async function observer(): Promise<Redis> {
      const client = new Redis(server.url);
      closers.push(async () => void client.disconnect());
      return client;
    }

    it('a byte-bounded append costs a few commands plus two per item dropped, and never reads an item', async () => {
      const redis = await store();
      const watch = await observer();
      // 200 items of 102 bytes (100 characters and quotes) under a bound of 200 items' worth.
      for (let index = 0; index < 200; index++) await redis.append('events', 'a'.repeat(100), 1_000, 60_000, { maxBytes: 20_400 });
      const small = await monitorWhile(watch, () => redis.append('events', 'b'.repeat(100), 1_000, 60_000, { maxBytes: 20_400 }));
      // Three items' worth of text pushes out the three oldest, whatever the list's length.
      const large = await monitorWhile(watch, () => redis.append('events', 'c'.repeat(304), 1_000, 60_000, { maxBytes: 20_400 }));
      const names = (ran: { inScripts: string[][] }) => ran.inScripts.map(([name]) => name);
      expect(small.fromClients.map(([name]) => name)).toEqual(['eval']);
      expect(names(small)).toEqual(['type', 'hmget', 'hset', 'hstrlen', 'hdel', 'hset', 'pexpire']);
      expect(names(large).filter((name) => name === 'hdel')).toHaveLength(3);
      expect(names(large)).toHaveLength(5 + 2 * 3);
      const items = await redis.list<string>('events');
      expect(items).toHaveLength(198);
      expect(items.at(-1)).toBe('c'.repeat(304));
    });

    it('reads and continues a list stored as a Redis list by an earlier release, with its bytes counted', async () => {
      const redis = await store();
      const raw = await observer();
      await raw.rpush('mcp:legacy', '"item-001"', '"item-002"', '"item-003"');
      expect(await redis.list('legacy')).toEqual(['item-001', 'item-002', 'item-003']);
      await redis.append('legacy', 'item-004', 10, 60_000, { maxBytes: 30 });
      expect(await redis.list('legacy')).toEqual(['item-002', 'item-003', 'item-004']);
      expect(await raw.type('mcp:legacy')).toBe('hash');
      expect(await raw.pttl('mcp:legacy')).toBeGreaterThan(0);
    });

    it('a read of an old Redis list that another append converts meanwhile still answers (rolling upgrade)', async () => {
      const redis = await store();
      const raw = await observer();
      for (let round = 0; round < 20; round++) {
        await raw.rpush('mcp:legacy', '"item-001"', '"item-002"');
        // One connection, in this order at Redis: HGETALL (WRONGTYPE on the list), the append's conversion, then the read's LRANGE.
        const [read] = await Promise.all([redis.list<string>('legacy'), redis.append('legacy', 'item-003', 10, 60_000)]);
        expect(read.slice(0, 2)).toEqual(['item-001', 'item-002']);
        await raw.del('mcp:legacy');
      }
    });
  });

  it('close quits the connections: later operations reject, and closing twice is fine', async () => {
    const redis = await McpRedisStore.connect({ url: server.url }, quietLogger());
    const messages = await McpRedisBus.connect({ url: server.url }, quietLogger());
    await messages.subscribe('ch', () => undefined);
    await Promise.all([redis.close(), messages.close()]);
    await Promise.all([redis.close(), messages.close()]);
    await expect(redis.get('k')).rejects.toBeInstanceOf(McpStoreUnavailableError);
    await expect(messages.publish('ch', 1)).rejects.toBeInstanceOf(McpStoreUnavailableError);
  });
});
