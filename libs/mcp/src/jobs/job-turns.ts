import { tenantSlotKey } from '../stores/store-key.js';
import type { RedisClient } from '../stores/redis-connection.js';

/** BullMQ's highest priority number (installed 6.x: `PRIORITY_LIMIT`, 2^21 - 1; its docs round it up to 2^21). */
export const MAX_BULLMQ_PRIORITY = 2 ** 21 - 1;

// A turn set is a sorted set per tenant: job id → expiry (ms, Redis clock). Expired members go first, so the count
// is the tenant's live jobs on the queue, this one included. One key per call: any Redis Cluster slot will do.
// KEYS: the tenant's set. ARGV: 1 = job id, 2 = ttl in ms. Answers how many jobs the tenant has on the queue now.
const TAKE_TURN = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return redis.call('ZCARD', KEYS[1])`;

/**
 * Tenants take turns on the BullMQ queue: a job's priority is how many jobs its tenant has on the queue when it is
 * added, itself included. BullMQ serves the lowest number first (FIFO within one), so a tenant's n-th job waits behind
 * every other tenant's first. The count is a sorted set per tenant in the queue's Redis, so it holds across
 * instances; an entry whose job was lost expires with its record (`jobs.resultTtlMs`).
 */
export class McpJobTurns {
  constructor(
    private readonly client: RedisClient,
    private readonly keyPrefix: string,
    private readonly ttlMs: number,
  ) {}

  /** Counts `jobId` among `tenant`'s jobs on the queue; answers its BullMQ priority. One atomic round trip. */
  async take(tenant: string, jobId: string): Promise<number> {
    const count = Number(await this.client.eval(TAKE_TURN, 1, this.key(tenant), jobId, this.ttlMs));
    return priorityFor(count);
  }

  /** Uncounts the job (one that was never counted changes nothing). */
  async release(tenant: string, jobId: string): Promise<void> {
    await this.client.zrem(this.key(tenant), jobId);
  }

  private key(tenant: string): string {
    return this.keyPrefix + tenantSlotKey('job-turns', tenant);
  }
}

/** The BullMQ priority of a tenant's `count`-th job on the queue: past BullMQ's range, the last one (FIFO there). */
export function priorityFor(count: number): number {
  return Math.min(Math.max(1, Math.trunc(count)), MAX_BULLMQ_PRIORITY);
}
