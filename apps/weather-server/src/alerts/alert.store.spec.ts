import { startRedisCluster, type RedisClusterHandle } from '../../../../libs/mcp/src/testing-kit/redis-cluster.harness.js';
import { startRedisServer, type RedisServerHandle } from '../../../../libs/mcp/src/testing-kit/redis-server.harness.js';
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
      // Another tenant's same key is its own alert.
      expect(await store.create(`${tenant}:other`, NEW_ALERT, 'request-key-0001')).toBeDefined();
      expect((await store.list(tenant, { after: 0, limit: 100 })).alerts).toHaveLength(2);
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
});
