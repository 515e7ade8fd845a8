import { startRedisCluster, type RedisClusterHandle } from '../../../../test/kit/redis-cluster.harness.js';
import { startRedisServer, type RedisServerHandle } from '../../../../test/kit/redis-server.harness.js';
import { McpStoreUnavailableError } from '@nest-mcp/core';
import { Redis } from 'ioredis';
import { eventually } from '../../../../test/kit/eventually.js';
import type { AlertStore, NewWeatherAlert } from './alert.store.js';
import { MemoryAlertStore } from './memory-alert.store.js';
import { RedisAlertStore } from './redis-alert.store.js';

const NEW_ALERT: NewWeatherAlert = { city_id: 'paris', city: 'Paris', threshold_celsius: 30, priority: 'low' };
const MAX = 5;

/** The behaviour both alert stores share, with a cap of 5 alerts per tenant. */
function describeAlertStore(name: string, open: () => Promise<{ store: AlertStore; close: () => Promise<void> }>): void {
  describe(name, () => {
    let store: AlertStore;
    let close: () => Promise<void>;
    let tenant: string;
    let sequence = 0;

    beforeEach(async () => {
      ({ store, close } = await open());
      tenant = `tenant:${++sequence}/ü`;
    });

    afterEach(() => close());

    it('keeps at most the cap per tenant, also when the creates race; other tenants are unaffected', async () => {
      const created = await Promise.all(Array.from({ length: 20 }, () => store.create(tenant, NEW_ALERT)));
      expect(created.filter(Boolean)).toHaveLength(MAX);
      expect(await store.create(tenant, NEW_ALERT)).toBeUndefined();
      expect(await store.create(`${tenant}:other`, NEW_ALERT)).toBeDefined();
      expect((await store.list(tenant, { after: 0, limit: 100 })).alerts).toHaveLength(MAX);
    });

    it('a delete makes room for one more', async () => {
      const alerts = [];
      for (let index = 0; index < MAX; index++) alerts.push((await store.create(tenant, NEW_ALERT))!);
      expect(await store.delete(tenant, alerts[2].alert_id)).toBe(true);
      expect(await store.delete(tenant, alerts[2].alert_id)).toBe(false);
      expect(await store.find(tenant, alerts[2].alert_id)).toBeUndefined();
      expect(await store.create(tenant, NEW_ALERT)).toBeDefined();
      expect(await store.create(tenant, NEW_ALERT)).toBeUndefined();
    });

    it('pages in creation order; a page continues after its cursor even when earlier alerts were deleted', async () => {
      const ids: string[] = [];
      for (let index = 0; index < MAX; index++) ids.push((await store.create(tenant, NEW_ALERT))!.alert_id);
      const first = await store.list(tenant, { after: 0, limit: 2 });
      expect(first.alerts.map((alert) => alert.alert_id)).toEqual(ids.slice(0, 2));
      expect(first.next).toBeDefined();
      await store.delete(tenant, ids[0]);
      await store.delete(tenant, ids[2]);
      const second = await store.list(tenant, { after: first.next!, limit: 2 });
      expect(second.alerts.map((alert) => alert.alert_id)).toEqual([ids[3], ids[4]]);
      expect(second.next).toBeUndefined();
      expect(await store.list('nobody', { after: 0, limit: 2 })).toEqual({ alerts: [] });
    });

    it('deleteAll removes every alert of the tenant only, says how many, and old cursors still page', async () => {
      for (let index = 0; index < 3; index++) await store.create(tenant, NEW_ALERT);
      const other = (await store.create(`${tenant}:other`, NEW_ALERT))!;
      const first = await store.list(tenant, { after: 0, limit: 2 });
      expect(await store.deleteAll(tenant)).toBe(3);
      expect(await store.deleteAll(tenant)).toBe(0);
      expect(await store.list(tenant, { after: 0, limit: 100 })).toEqual({ alerts: [] });
      expect(await store.find(`${tenant}:other`, other.alert_id)).toEqual(other);
      const fresh = (await store.create(tenant, NEW_ALERT))!;
      expect((await store.list(tenant, { after: first.next!, limit: 2 })).alerts).toEqual([fresh]);
      expect(await store.deleteAll('nobody')).toBe(0);
    });

    it('creates one alert per request key, however often the create is repeated (a retry after a crash), and only per tenant', async () => {
      const first = (await store.create(tenant, NEW_ALERT, 'request-key-0001'))!;
      const retries = await Promise.all(Array.from({ length: 5 }, () => store.create(tenant, NEW_ALERT, 'request-key-0001')));
      expect(retries).toEqual(Array.from({ length: 5 }, () => first));
      const other = (await store.create(tenant, NEW_ALERT, 'request-key-0002'))!;
      expect(other.alert_id).not.toBe(first.alert_id);
      expect((await store.list(tenant, { after: 0, limit: 100 })).alerts).toEqual([first, other]);
      // Another tenant's same key is its own alert, with an id of its own (ids are unique across tenants).
      const others = (await store.create(`${tenant}:other`, NEW_ALERT, 'request-key-0001'))!;
      expect(others.alert_id).not.toBe(first.alert_id);
      expect((await store.list(tenant, { after: 0, limit: 100 })).alerts).toHaveLength(2);
    });

    it('keeps tenants apart whose names hold braces, escapes, emoji or a lone UTF-16 surrogate', async () => {
      // Lone surrogates arrive in JSON (a JWT claim "\ud800"); encodeURIComponent throws on them (URIError).
      const tenants = ['{a}', 'a}{b', '{a', 'a%7Bb', 'a:b', 'a%3Ab', '\u{1F600}', '\ud83d', '\ude00', '%uD83D', '%25uD83D'];
      const created = new Map<string, string>();
      for (const name of tenants) created.set(name, (await store.create(`${tenant}${name}`, NEW_ALERT))!.alert_id);
      for (const name of tenants) {
        const alerts = (await store.list(`${tenant}${name}`, { after: 0, limit: 100 })).alerts;
        expect(alerts.map((alert) => alert.alert_id)).toEqual([created.get(name)]);
        expect(await store.find(`${tenant}${name}`, created.get(name)!)).toBeDefined();
        expect(await store.deleteAll(`${tenant}${name}`)).toBe(1);
      }
    });

    it('finds only the tenant’s own alerts', async () => {
      const alert = (await store.create(tenant, NEW_ALERT))!;
      expect(await store.find(tenant, alert.alert_id)).toEqual(alert);
      expect(await store.find(`${tenant}x`, alert.alert_id)).toBeUndefined();
      expect(await store.delete(`${tenant}x`, alert.alert_id)).toBe(false);
    });
  });
}

describeAlertStore('MemoryAlertStore', async () => ({ store: new MemoryAlertStore(MAX), close: async () => undefined }));

describe('RedisAlertStore (redis-server)', () => {
  let redis: RedisServerHandle;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(() => redis?.stop());

  describeAlertStore('RedisAlertStore', async () => {
    const store = await RedisAlertStore.connect(redis.url, MAX);
    return { store, close: () => store.onApplicationShutdown() };
  });

  it('a Redis that refuses for now (READONLY: it became a replica in a failover) is a retryable McpStoreUnavailableError', async () => {
    const client = new Redis(redis.url);
    const store = await RedisAlertStore.connect(redis.url, MAX);
    try {
      // Before: the ReplyError passed through, and the tool answered INTERNAL_ERROR (not retryable).
      await client.replicaof('127.0.0.1', '1');
      await expect(store.create('failover', NEW_ALERT)).rejects.toBeInstanceOf(McpStoreUnavailableError);
      await expect(store.create('failover', NEW_ALERT)).rejects.toThrow(/alert store \(Redis\) is unavailable/);
      await client.replicaof('NO', 'ONE');
      expect(await store.create('failover', NEW_ALERT)).toBeDefined();
    } finally {
      await client.replicaof('NO', 'ONE');
      client.disconnect();
      await store.onApplicationShutdown();
    }
  });

  it('reads, pages, creates in and deletes the untagged keys of the release before cluster support (weather:alerts:<tenant>:…)', async () => {
    const client = new Redis(redis.url);
    const store = await RedisAlertStore.connect(redis.url, MAX);
    try {
      // As the earlier release wrote them: two alerts at positions 1 and 2.
      const old = 'weather:alerts:upgraded%2F%C3%A9';
      const earlier = [1, 2].map((position) => ({
        ...NEW_ALERT,
        alert_id: `alert-old-${position}`,
        created_at: '2026-01-01T00:00:00.000Z',
      }));
      for (const [index, alert] of earlier.entries()) {
        await client.hset(`${old}:by-id`, alert.alert_id, JSON.stringify(alert));
        await client.zadd(`${old}:positions`, index + 1, alert.alert_id);
      }
      await client.set(`${old}:last-position`, 2);

      expect(await store.find('upgraded/é', 'alert-old-1')).toEqual(earlier[0]);
      expect((await store.list('upgraded/é', { after: 0, limit: 10 })).alerts).toEqual(earlier);
      const fresh = (await store.create('upgraded/é', NEW_ALERT))!;
      expect((await store.list('upgraded/é', { after: 1, limit: 10 })).alerts).toEqual([earlier[1], fresh]);
      expect(await store.delete('upgraded/é', 'alert-old-2')).toBe(true);
      // Moved to the tagged keys once; nothing is left under the old names.
      expect(await client.exists(`${old}:by-id`, `${old}:positions`, `${old}:last-position`)).toBe(0);
      expect(await client.hlen('weather:alerts:{upgraded%2F%C3%A9}:by-id')).toBe(2);
    } finally {
      client.disconnect();
      await store.onApplicationShutdown();
    }
  });
});

// Each script touches several keys of one tenant: on a cluster they must share a slot (else CROSSSLOT).
describe('RedisAlertStore (a 3-master Redis Cluster)', () => {
  let cluster: RedisClusterHandle;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);

  afterAll(() => cluster?.stop());

  describeAlertStore('RedisAlertStore on a cluster', async () => {
    const store = await RedisAlertStore.connect({ cluster: { nodes: cluster.nodes } }, MAX);
    return { store, close: () => store.onApplicationShutdown() };
  });

  it('while a master is out the cluster is down: every call is a retryable McpStoreUnavailableError, and works again once it is back', async () => {
    const store = await RedisAlertStore.connect({ cluster: { nodes: cluster.nodes } }, MAX);
    const live = new Redis(cluster.servers[1].url);
    const tenants = Array.from({ length: 6 }, (_, index) => `outage-${index}`);
    try {
      const before = new Map<string, unknown>();
      for (const name of tenants) before.set(name, await store.create(name, NEW_ALERT));
      process.kill(cluster.servers[0].pid, 'SIGSTOP');
      // The other masters mark it failed after cluster-node-timeout; from then on they answer CLUSTERDOWN (a
      // Redis reply, before: passed through as an internal error); the frozen node's own slots time out.
      await eventually(async () => (await live.cluster('INFO')).includes('cluster_state:fail'), 20_000, 'cluster down');
      const outcomes = await Promise.all(
        tenants.map((name) =>
          store.create(name, NEW_ALERT).then(
            () => 'stored',
            (error: unknown) => error,
          ),
        ),
      );
      for (const outcome of outcomes) expect(outcome).toBeInstanceOf(McpStoreUnavailableError);
      const listed = await store.list(tenants[0], { after: 0, limit: 10 }).catch((error: unknown) => error);
      expect(listed).toBeInstanceOf(McpStoreUnavailableError);

      process.kill(cluster.servers[0].pid, 'SIGCONT');
      await eventually(async () => (await live.cluster('INFO')).includes('cluster_state:ok'), 30_000, 'cluster back');
      await eventually(
        async () =>
          (await Promise.all(tenants.map((name) => store.list(name, { after: 0, limit: 10 }).catch(() => undefined)))).every(Boolean),
        10_000,
        'every slot answers',
      );
      // What was stored before is there; a create that timed out on the frozen node may have run once it thawed
      // (UNAVAILABLE says "retry", not "nothing happened": the alert tool's retries carry an idempotency key).
      for (const name of tenants) expect((await store.list(name, { after: 0, limit: 10 })).alerts).toContainEqual(before.get(name));
    } finally {
      process.kill(cluster.servers[0].pid, 'SIGCONT');
      live.disconnect();
      await store.onApplicationShutdown();
    }
  }, 90_000);
});
