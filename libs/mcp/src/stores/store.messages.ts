import { bootErrors } from '../core/errors/boot-errors.js';

/** Boot and log texts of the stores and buses, each naming the place and the fix (boot errors: `docs/errors.md`). */
export const McpStoreMessages = {
  ...bootErrors({
    ioredisMissing: {
      code: 'MCP_ERR_REDIS_IOREDIS_MISSING',
      message: () => 'McpModule option "redis" needs the ioredis package: install ioredis to use the redis option (npm install ioredis).',
      fix: '`npm install ioredis`.',
    },
  }),
  unreachableAtBoot: (role: string, target: string, reason: string) =>
    target.startsWith('redis-cluster://')
      ? `McpModule option "redis.cluster": the ${role} cannot reach the Redis Cluster at ${target} (${reason}); check the nodes and that the cluster is up (cluster_state:ok).`
      : `McpModule option "redis.url": the ${role} cannot reach Redis at ${target} (${reason}); check the URL and that Redis is running.`,
  connectionLost: (role: string, target: string, reason: string) =>
    `Redis connection of the ${role} to ${target} lost (${reason}); retrying. Until it is back, operations fail with McpStoreUnavailableError.`,
  connectionBack: (role: string, target: string) => `Redis connection of the ${role} to ${target} is back.`,
  unavailable: (target: string, reason: string) => `Redis at ${target} is unavailable (${reason}); retry later.`,
  handlerFailed: (channel: string) => `A message bus handler for channel "${channel}" threw`,
  storeFull: () => 'The server holds its maximum number of stored records; retry later.',
};
