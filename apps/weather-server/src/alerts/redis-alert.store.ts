import type { OnApplicationShutdown } from '@nestjs/common';
import { McpStoreUnavailableError, type McpRedisOptions } from '@nest-mcp/core';
import { Cluster, Redis, ReplyError, type ClusterOptions, type RedisOptions } from 'ioredis';
import { AlertStore, MAX_ALERTS_PER_TENANT, stampAlert, type AlertPage, type NewWeatherAlert, type WeatherAlert } from './alert.store.js';

/** A tenant's alerts are kept for a year after its last change. */
const ALERTS_TTL_MS = 365 * 24 * 60 * 60_000;

// While Redis is down every command fails at once (no offline queue, no retries per command), so a call answers
// UNAVAILABLE instead of hanging; the connection itself keeps coming back on its own.
const CONNECTION_OPTIONS: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 5_000,
  connectTimeout: 5_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
  disconnectTimeout: 200,
};

/** The same on a Redis Cluster, over the user's cluster options (ioredis takes per-node settings in `redisOptions`). */
function clusterOptions(user: Record<string, unknown> = {}): ClusterOptions {
  const { lazyConnect, enableOfflineQueue, retryStrategy, ...perNode } = CONNECTION_OPTIONS;
  return {
    ...user,
    lazyConnect,
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy,
    redisOptions: { ...(user.redisOptions as RedisOptions | undefined), ...perNode },
  };
}

/** Where the alerts live: the MCP module's own `redis` target (a server URL, or a Redis Cluster's nodes). */
export type AlertRedisTarget = Pick<McpRedisOptions, 'url' | 'cluster'>;

/**
 * Redis replies that refuse a command for now, not for good: a server still loading its data, a script running too
 * long, a replica after a failover, a cluster missing a node. Retrying shortly helps, so they are UNAVAILABLE too.
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\b/;

// Every script gets the tenant's keys: KEYS[1] alerts hash (id → JSON), KEYS[2] positions sorted set (id by
// position), KEYS[3] last position counter. On one server it also gets, as KEYS[4..6], the same keys as the
// release before cluster support named them (no hash tag; a cluster never had them), and first moves them to the
// tagged names if the tenant has none of those yet: an upgraded server keeps its alerts.
const MOVE_UNTAGGED = `
if #KEYS == 6 and redis.call('EXISTS', KEYS[1], KEYS[2], KEYS[3]) == 0 then
  for index = 1, 3 do
    if redis.call('EXISTS', KEYS[index + 3]) == 1 then redis.call('RENAME', KEYS[index + 3], KEYS[index]) end
  end
end
`;

// ARGV: 1 = most alerts per tenant, 2 = id, 3 = JSON, 4 = ttl in ms. Returns the new position, 0 when full, or
// the stored JSON when an alert with that id exists (an id derived from a request key: a retry).
const CREATE = `${MOVE_UNTAGGED}
local existing = redis.call('HGET', KEYS[1], ARGV[2])
if existing then return existing end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local position = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], position, ARGV[2])
for index = 1, 3 do redis.call('PEXPIRE', KEYS[index], ARGV[4]) end
return position`;

// ARGV: 1 = position to start after, 2 = how many. Returns position, JSON, position, JSON… in position order.
const PAGE = `${MOVE_UNTAGGED}
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local page = {}
for index = 1, #ids, 2 do
  local json = redis.call('HGET', KEYS[1], ids[index])
  if json then
    page[#page + 1] = ids[index + 1]
    page[#page + 1] = json
  end
end
return page`;

// ARGV: 1 = id. Returns the alert's JSON, or nil.
const FIND = `${MOVE_UNTAGGED}
return redis.call('HGET', KEYS[1], ARGV[1])`;

// ARGV: 1 = id, 2 = ttl in ms. Returns 1 when the alert existed.
const DELETE = `${MOVE_UNTAGGED}
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if removed == 1 then
  for index = 1, 3 do redis.call('PEXPIRE', KEYS[index], ARGV[2]) end
end
return removed`;

// The last position stays: positions only grow. Returns how many were removed.
const DELETE_ALL = `${MOVE_UNTAGGED}
local count = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return count`;

/**
 * Alerts in Redis (with `REDIS_URL`, or on a Redis Cluster with `REDIS_CLUSTER_NODES`), so every instance sees the
 * same alerts. Per tenant a hash of its alerts and a sorted set of their positions; each change is one Lua script,
 * atomic in Redis, so any number of instances creating alerts at once all keep theirs, with no read-modify-write to
 * retry, and the `MAX_ALERTS_PER_TENANT` check cannot be raced past. Pages read the sorted set from a position on.
 * A tenant's keys share one hash tag, so on a cluster every script finds them all on one node.
 */
export class RedisAlertStore extends AlertStore implements OnApplicationShutdown {
  private constructor(
    private readonly client: Redis | Cluster,
    private readonly maxPerTenant: number,
    /** One server (not a cluster): its tenants may still have keys of the release before cluster support. */
    private readonly mayHoldUntagged: boolean,
  ) {
    super();
  }

  /**
   * Connects to a server (`url`, or `{ url }`) or a cluster (`{ cluster: { nodes } }`) and waits until it answers:
   * a wrong address fails the boot, not the first call.
   */
  static async connect(target: string | AlertRedisTarget, maxPerTenant = MAX_ALERTS_PER_TENANT): Promise<RedisAlertStore> {
    const { url, cluster } = typeof target === 'string' ? { url: target, cluster: undefined } : target;
    const client = cluster ? new Cluster(cluster.nodes, clusterOptions(cluster.options)) : new Redis(url ?? '', CONNECTION_OPTIONS);
    // Without a listener an 'error' event would crash the process; outages surface as UNAVAILABLE answers.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      client.disconnect(); // or it would go on reconnecting after the failed boot
      throw error;
    }
    return new RedisAlertStore(client, maxPerTenant, !cluster);
  }

  async create(tenant: string, alert: NewWeatherAlert, requestKey?: string): Promise<WeatherAlert | undefined> {
    const stored = stampAlert(tenant, alert, requestKey);
    const outcome = await this.script(CREATE, tenant, this.maxPerTenant, stored.alert_id, JSON.stringify(stored), ALERTS_TTL_MS);
    if (typeof outcome === 'string') return JSON.parse(outcome) as WeatherAlert;
    return Number(outcome) > 0 ? stored : undefined;
  }

  async list(tenant: string, page: { after: number; limit: number }): Promise<AlertPage> {
    // One more than asked tells whether another page follows.
    const flat = (await this.script(PAGE, tenant, page.after, page.limit + 1)) as string[];
    const entries: Array<{ position: number; alert: WeatherAlert }> = [];
    for (let index = 0; index < flat.length; index += 2)
      entries.push({ position: Number(flat[index]), alert: JSON.parse(flat[index + 1]) as WeatherAlert });
    const taken = entries.slice(0, page.limit);
    return { alerts: taken.map(({ alert }) => alert), ...(entries.length > page.limit && { next: taken[taken.length - 1].position }) };
  }

  async find(tenant: string, alertId: string): Promise<WeatherAlert | undefined> {
    const json = (await this.script(FIND, tenant, alertId)) as string | null;
    return json === null ? undefined : (JSON.parse(json) as WeatherAlert);
  }

  async delete(tenant: string, alertId: string): Promise<boolean> {
    return Number(await this.script(DELETE, tenant, alertId, ALERTS_TTL_MS)) === 1;
  }

  async deleteAll(tenant: string): Promise<number> {
    return Number(await this.script(DELETE_ALL, tenant));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }

  /** Runs one of the scripts above on the tenant's keys (and, on one server, their untagged names). */
  private script(script: string, tenant: string, ...args: Array<string | number>): Promise<unknown> {
    const keys = this.mayHoldUntagged ? [...keysOf(tenant), ...untaggedKeysOf(tenant)] : keysOf(tenant);
    return this.run(() => this.client.eval(script, keys.length, ...keys, ...args));
  }

  /**
   * Runs a command; a connection problem (down, reconnecting, timed out) or a transient refusal (`READONLY` after
   * a failover, `CLUSTERDOWN`, `LOADING`…) is a retryable UNAVAILABLE; any other Redis reply (a bug) is thrown as is.
   */
  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      if (error instanceof ReplyError && !TRANSIENT_REPLY.test((error as Error).message)) throw error;
      throw new McpStoreUnavailableError('The alert store (Redis) is unavailable; retry shortly.', { cause: error });
    }
  }
}

/**
 * The tenant's keys, `weather:alerts:{<tenant>}:by-id`, `:positions`, `:last-position`. The tenant is encoded
 * ({@link encodeTenant}), so no tenant name can reach into another tenant's keys, and its braces are escaped: the
 * `{…}` hash tag (all Redis Cluster hashes) is exactly the tenant, so its keys share one slot, as a script touching
 * several of them needs.
 */
function keysOf(tenant: string): string[] {
  return keysUnder(`weather:alerts:{${encodeTenant(tenant)}}`);
}

/** The same keys as the release before cluster support named them, `weather:alerts:<tenant>:…` (one server only). */
function untaggedKeysOf(tenant: string): string[] {
  return keysUnder(`weather:alerts:${encodeTenant(tenant)}`);
}

function keysUnder(base: string): string[] {
  return [`${base}:by-id`, `${base}:positions`, `${base}:last-position`];
}

/** A UTF-16 surrogate without its other half (a JSON string such as a JWT claim may carry one). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CODE_UNIT = /[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g;

/**
 * `encodeURIComponent(tenant)` (the names earlier releases stored under), which throws a URIError on a lone
 * surrogate: that one becomes `%uXXXX`, which no other tenant's name encodes to (a literal `%` is `%25`).
 */
function encodeTenant(tenant: string): string {
  if (!LONE_SURROGATE.test(tenant)) return encodeURIComponent(tenant);
  return tenant.replace(CODE_UNIT, (unit) =>
    unit.length === 1 && unit >= '\ud800' && unit <= '\udfff'
      ? `%u${unit.charCodeAt(0).toString(16).toUpperCase()}`
      : encodeURIComponent(unit),
  );
}
