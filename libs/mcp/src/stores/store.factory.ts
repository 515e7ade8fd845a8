import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpKeyValueStore } from './key-value.store.js';
import { McpMemoryStore } from './memory.store.js';
import { McpMemoryBus } from './memory-message.bus.js';
import type { McpMessageBus } from '../core/message-bus.interface.js';
import { McpRedisBus } from './redis-message.bus.js';
import { McpRedisStore } from './redis.store.js';

/** `MCP_STORE`: Redis when the `redis` option is set (ioredis loaded only then), else process memory. */
export async function createMcpStore(options: McpResolvedOptions): Promise<McpKeyValueStore> {
  return options.redis ? McpRedisStore.connect(options.redis) : new McpMemoryStore();
}

/** `MCP_BUS`: Redis pub/sub when the `redis` option is set, else in-process delivery. */
export async function createMcpBus(options: McpResolvedOptions): Promise<McpMessageBus> {
  return options.redis ? McpRedisBus.connect(options.redis) : new McpMemoryBus();
}
