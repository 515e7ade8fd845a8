import type { McpRedisOptions } from '../options/mcp-module-options.interface.js';
import { McpRedisBus } from './redis-message.bus.js';
import { McpRedisStore } from './redis.store.js';
import { describeBusContract, describeStoreContract } from '../../../../test/kit/store-contract.js';
import { startRedisServer } from '../../../../test/kit/redis-server.harness.js';
import { startRedisCluster } from '../../../../test/kit/redis-cluster.harness.js';

/**
 * The store and bus contracts on one redis-server and on a 3-master Redis Cluster: the same tests, so whatever
 * holds on one server holds on a cluster (every multi-key script on one slot, pub/sub across nodes). Every
 * store or bus pair gets its own key prefix, so tests never see each other.
 */
const targets: Array<[string, () => Promise<{ target: Omit<McpRedisOptions, 'keyPrefix'>; stop: () => Promise<void> }>]> = [
  [
    'one server',
    async () => {
      const server = await startRedisServer();
      return { target: { url: server.url }, stop: () => server.stop() };
    },
  ],
  [
    'Redis Cluster',
    async () => {
      const cluster = await startRedisCluster();
      return { target: { cluster: { nodes: cluster.nodes } }, stop: () => cluster.stop() };
    },
  ],
];

describe.each(targets)('on %s', (name, start) => {
  let target: Omit<McpRedisOptions, 'keyPrefix'>;
  let stop: (() => Promise<void>) | undefined;
  let namespace = 0;

  beforeAll(async () => {
    ({ target, stop } = await start());
  }, 60_000);

  afterAll(async () => {
    await stop?.();
  });

  describeStoreContract(`McpRedisStore (${name})`, async () => {
    const store = await McpRedisStore.connect({ ...target, keyPrefix: `contract:${++namespace}:` });
    return { store, cleanup: () => store.close() };
  });

  describeBusContract(`McpRedisBus (${name})`, async () => {
    const options = { ...target, keyPrefix: `contract:${++namespace}:` };
    const bus = await McpRedisBus.connect(options);
    const peer = await McpRedisBus.connect(options);
    return { bus, peer, cleanup: async () => void (await Promise.all([bus.close(), peer.close()])) };
  });
});
