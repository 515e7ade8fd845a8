import { McpRedisBus } from './redis-message.bus.js';
import { McpRedisStore } from './redis.store.js';
import { describeBusContract, describeStoreContract } from '../testing-kit/store-contract.js';
import { startRedisServer, type RedisServerHandle } from '../testing-kit/redis-server.harness.js';

// One redis-server for the file; every store or bus pair gets its own key prefix, so tests never see each other.
let server: RedisServerHandle;
let namespace = 0;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server?.stop();
});

describeStoreContract('McpRedisStore', async () => {
  const store = await McpRedisStore.connect({ url: server.url, keyPrefix: `contract:${++namespace}:` });
  return { store, cleanup: () => store.close() };
});

describeBusContract('McpRedisBus', async () => {
  const options = { url: server.url, keyPrefix: `contract:${++namespace}:` };
  const bus = await McpRedisBus.connect(options);
  const peer = await McpRedisBus.connect(options);
  return { bus, peer, cleanup: async () => void (await Promise.all([bus.close(), peer.close()])) };
});
