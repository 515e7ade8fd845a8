import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { McpConfigurationError, McpModule, McpStoreUnavailableError, type McpModuleOptions } from '@nest-mcp/core';
// The stores and buses are internal (the `redis` option picks them): their tokens and classes come from source.
import { MCP_BUS } from '../../libs/mcp/src/core/message-bus.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../../libs/mcp/src/stores/key-value.store.js';
import { McpMemoryBus } from '../../libs/mcp/src/stores/memory-message.bus.js';
import { McpMemoryStore } from '../../libs/mcp/src/stores/memory.store.js';
import { McpRedisBus } from '../../libs/mcp/src/stores/redis-message.bus.js';
import { McpRedisStore } from '../../libs/mcp/src/stores/redis.store.js';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';

function boot(options: Partial<McpModuleOptions>) {
  return Test.createTestingModule({ imports: [McpModule.forRoot({ name: 'scale', version: '1.0.0', ...options })] }).compile();
}

describe('McpModule option "redis"', () => {
  let redis: RedisServerHandle;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it('without it, the store and the bus live in memory', async () => {
    const moduleRef = await boot({});
    expect(moduleRef.get(MCP_STORE, { strict: false })).toBeInstanceOf(McpMemoryStore);
    expect(moduleRef.get(MCP_BUS, { strict: false })).toBeInstanceOf(McpMemoryBus);
    await moduleRef.close();
  });

  it.each([['http://localhost:6379'], ['localhost:6379'], [''], [42]])('refuses url %p at boot, naming redis.url', async (url) => {
    const failure = boot({ redis: { url: url as string } });
    await expect(failure).rejects.toThrow(McpConfigurationError);
    await expect(failure).rejects.toThrow(/"redis\.url" must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  it('never echoes a rejected URL, which may carry a password', async () => {
    await expect(boot({ redis: { url: 'https://user:hunter2@cache:6379' } })).rejects.not.toThrow(/hunter2/);
  });

  it('refuses a keyPrefix that is not a string', async () => {
    await expect(boot({ redis: { url: redis.url, keyPrefix: 7 as never } })).rejects.toThrow(/"redis\.keyPrefix" must be a string/);
  });

  it('fails the boot when Redis cannot be reached', async () => {
    const failure = boot({ redis: { url: 'redis://127.0.0.1:1' } });
    await expect(failure).rejects.toThrow(McpStoreUnavailableError);
    await expect(failure).rejects.toThrow(/redis\.url/);
  });

  it('with it, uses Redis under the key prefix, and closes both connections on shutdown', async () => {
    const moduleRef = await boot({ redis: { url: redis.url, keyPrefix: 'option-test:' } });
    const store = moduleRef.get<McpKeyValueStore>(MCP_STORE, { strict: false });
    expect(store).toBeInstanceOf(McpRedisStore);
    expect(moduleRef.get(MCP_BUS, { strict: false })).toBeInstanceOf(McpRedisBus);

    const raw = await McpRedisStore.connect({ url: redis.url, keyPrefix: '' });
    try {
      await store.set('k', { v: 1 }, 60_000);
      expect(await raw.get('option-test:k')).toEqual({ v: 1 });
    } finally {
      await raw.close();
    }

    await moduleRef.close();
    await expect(store.get('k')).rejects.toBeInstanceOf(McpStoreUnavailableError);
  });
});
