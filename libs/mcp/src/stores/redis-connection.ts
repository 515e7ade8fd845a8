import type { LoggerService } from '@nestjs/common';
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import type { McpRedisOptions } from '../options/mcp-module-options.interface.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { importOptionalPeer } from '../core/optional-peer.js';
import { McpStoreMessages } from './store.messages.js';
import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';

/** Where outage notices go: a Nest `Logger` unless a test passes its own. */
export type McpRedisLogger = Pick<LoggerService, 'log' | 'warn' | 'error'>;

/** A client of one server or of a Redis Cluster: the same commands either way. */
export type RedisClient = Redis | Cluster;

/** Where to connect: the `redis` option without its key prefix (one of the two is set). */
export type RedisTarget = Pick<McpRedisOptions, 'url' | 'cluster'>;

/** One connection of a store or bus, with the target shown in messages (password masked). */
export interface RedisConnection {
  client: RedisClient;
  target: string;
}

// Every command fails fast while the connection is down: no offline queue, no per-request retries, and a
// timeout for a server that accepts bytes but never answers. Reconnection itself goes on forever.
export const FAIL_FAST_CONNECTION_OPTIONS: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 5_000,
  connectTimeout: 5_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
  // ioredis arms this timer on disconnect even for a socket that is already closed; at its default (2 s) it
  // would hold a failed boot or a shutdown open that long.
  disconnectTimeout: 200,
};

/** Connection settings shaped for a cluster (per-node `redisOptions`, its own retry strategy); ours win over the user's. */
export function clusterConnectionOptions(
  user: Record<string, unknown> = {},
  settings: RedisOptions = FAIL_FAST_CONNECTION_OPTIONS,
): ClusterOptions {
  const { lazyConnect, enableOfflineQueue, retryStrategy, ...perNode } = settings;
  return {
    ...user,
    lazyConnect,
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy as ClusterOptions['clusterRetryStrategy'],
    redisOptions: { ...((user.redisOptions as RedisOptions | undefined) ?? {}), ...perNode },
  };
}

/** Redis errors that mean "not now" rather than "wrong command". */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\b/;

/** The URL with any password masked, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid redis url>';
  }
}

/** Where a target points, for messages: the URL with any password masked, or the cluster's startup nodes. */
export function describeRedisTarget(target: RedisTarget): string {
  return target.cluster
    ? `redis-cluster://${target.cluster.nodes.map(({ host, port }) => `${host}:${port}`).join(',')}`
    : redactRedisUrl(target.url ?? '');
}

/** The ioredis client classes, imported only when the redis option is used (ioredis is an optional peer). */
export async function loadIoredisModule(
  importer: () => Promise<{ Redis: typeof Redis; Cluster: typeof Cluster }> = () => import('ioredis'),
): Promise<{ Redis: typeof Redis; Cluster: typeof Cluster }> {
  const ioredis = await importOptionalPeer(importer);
  if (!ioredis) throw new McpConfigurationError(McpStoreMessages.ioredisMissing());
  return { Redis: ioredis.Redis, Cluster: ioredis.Cluster };
}

/** A new, not yet connected client for `target` with `settings` (the fail-fast ones unless given). */
export async function createRedisClient(target: RedisTarget, settings: RedisOptions = FAIL_FAST_CONNECTION_OPTIONS): Promise<RedisClient> {
  const { Redis: RedisClass, Cluster: ClusterClass } = await loadIoredisModule();
  if (target.cluster) return new ClusterClass(target.cluster.nodes, clusterConnectionOptions(target.cluster.options, settings));
  return new RedisClass(target.url ?? '', settings);
}

/**
 * Opens a connection and waits until it is ready, so a wrong URL fails the boot instead of the first request.
 * Afterwards an outage is logged once (and its end once) while ioredis reconnects in the background; an
 * 'error' listener is always attached, since an unhandled 'error' event would crash the process.
 */
export async function openRedisConnection(redis: RedisTarget, role: string, logger: McpRedisLogger): Promise<RedisConnection> {
  const target = describeRedisTarget(redis);
  const client = await createRedisClient(redis);
  let lastError: unknown;
  let down = false;
  let booted = false;
  const lost = (reason: string) => {
    if (!booted || down) return;
    down = true;
    logger.warn(McpStoreMessages.connectionLost(role, target, reason));
  };
  client.on('error', (error: Error) => {
    lastError = error;
    lost(error.message);
  });
  client.on('reconnecting', () => lost(lastError instanceof Error ? lastError.message : 'connection closed'));
  client.on('ready', () => {
    if (down) logger.log(McpStoreMessages.connectionBack(role, target));
    down = false;
    lastError = undefined;
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const reason = lastError instanceof Error ? lastError.message : error instanceof Error ? error.message : String(error);
    throw new McpStoreUnavailableError(McpStoreMessages.unreachableAtBoot(role, target, reason), { cause: lastError ?? error });
  }
  booted = true;
  return { client, target };
}

/** Runs one command; a connection-level failure becomes `McpStoreUnavailableError`, a command error stays. */
export async function runCommand<T>(connection: RedisConnection, command: (client: RedisClient) => Promise<T>): Promise<T> {
  try {
    return await command(connection.client);
  } catch (error) {
    throw toStoreError(error, connection.target);
  }
}

function toStoreError(error: unknown, target: string): unknown {
  if (error instanceof McpStoreUnavailableError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // A ReplyError is Redis refusing this command (WRONGTYPE, a script error): retrying will not help.
  if (error instanceof Error && error.name === 'ReplyError' && !TRANSIENT_REPLY.test(message)) return error;
  return new McpStoreUnavailableError(McpStoreMessages.unavailable(target, message), { cause: error });
}

/** Closes politely (QUIT) when connected, at once otherwise, so shutdown never waits for a dead server. */
export async function closeRedisClient(client: RedisClient): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else if (client.status !== 'end') client.disconnect();
}
