import { Logger } from '@nestjs/common';
import type { McpRedisOptions } from '../options/mcp-module-options.interface.js';
import type { McpAdmission, McpKeyValueStore, McpSlotSet, McpWindowCounter } from './key-value.store.js';
import {
  closeRedisClient,
  openRedisConnection,
  runCommand,
  type McpRedisLogger,
  type RedisClient,
  type RedisConnection,
} from './redis-connection.js';
import { appendedText, assertMaxLength, assertTtl, decodeValue, encodeValue, type AppendOptions } from './store-values.js';
import { DEFAULT_REDIS_KEY_PREFIX } from '../options/declarations/redis.options.js';

// Compares JSON texts, so the caller's `expected` must be what it read (same member order).
// ARGV: 1 = '1' when the key must be absent, 2 = expected JSON, 3 = next JSON, 4 = ttl in ms.
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if current then return 0 end
elseif current ~= ARGV[2] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1`;

// ARGV: 1 = expected JSON. Returns 1 when the key held it and is now deleted.
const DELETE_IF_EQUALS = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

// INCR and the first PEXPIRE in one script: a crash between them would leave a counter that never expires.
const INCREMENT = `
local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return value`;

// A slot set is a sorted set: member → expiry (ms, Redis clock, so every instance agrees); expired members go
// first, then ZCARD is the exact live count. One script, so two instances cannot both take the last slot.
// KEYS: [window], the sets. ARGV: 1 = member, 2 = ttl in ms, 3 = '1' with a window, 4 = its limit, 5 = its length
// in ms, 6.. = each set's limit. Answers {-1, 0} admitted, {-2, ms left} window full, {index of the full set, 0}.
const ADMIT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[2])
local first = 1
if ARGV[3] == '1' then
  first = 2
  local counted = tonumber(redis.call('GET', KEYS[1]) or '0')
  if counted >= tonumber(ARGV[4]) then
    local left = redis.call('PTTL', KEYS[1])
    if left < 0 then left = tonumber(ARGV[5]) end
    return {-2, left}
  end
end
for i = first, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if not redis.call('ZSCORE', KEYS[i], ARGV[1]) and redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[i - first + 6]) then
    return {i - first, 0}
  end
end
for i = first, #KEYS do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[1])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
if first == 2 and redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
return {-1, 0}`;

// The record's PEXPIRE, then (when it existed) the member's new expiry in each slot set, as ADMIT adds it.
// KEYS: [record], the sets. ARGV: 1 = ttl in ms, 2 = member, 3 = '1' when KEYS[1] is the record. Answers 1 or 0.
const TOUCH = `
local first = 1
if ARGV[3] == '1' then
  if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then return 0 end
  first = 2
end
if #KEYS < first then return 1 end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = first, #KEYS do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[2])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1`;

// A list is one Redis hash (one key: any Cluster slot will do), every step O(1): 'h' = oldest sequence number,
// 'n' = the next one, 'b' = bytes of JSON held, '<sequence>' = an item (dropped by its HSTRLEN, never read). A Redis
// list (releases up to 0.1) is converted on its next append. ARGV: 1 = item JSON, 2 = maxLength, 3 = maxBytes (0:
// none), 4 = ttl in ms.
const APPEND = `
local key = KEYS[1]
if redis.call('TYPE', key).ok == 'list' then
  local items = redis.call('LRANGE', key, 0, -1)
  redis.call('DEL', key)
  local held = 0
  for i = 1, #items do
    redis.call('HSET', key, i - 1, items[i])
    held = held + #items[i]
  end
  redis.call('HSET', key, 'h', 0, 'n', #items, 'b', held)
end
local meta = redis.call('HMGET', key, 'h', 'n', 'b')
local head, tail, bytes = tonumber(meta[1] or 0), tonumber(meta[2] or 0), tonumber(meta[3] or 0) + #ARGV[1]
redis.call('HSET', key, tail, ARGV[1])
tail = tail + 1
local maxLength, maxBytes = tonumber(ARGV[2]), tonumber(ARGV[3])
while tail - head > maxLength or (maxBytes > 0 and bytes > maxBytes and tail - head > 1) do
  bytes = bytes - redis.call('HSTRLEN', key, head)
  redis.call('HDEL', key, head)
  head = head + 1
end
redis.call('HSET', key, 'h', head, 'n', tail, 'b', bytes)
redis.call('PEXPIRE', key, ARGV[4])
return 0`;

/** The fields of a list's hash that hold its items (named by sequence number), beside 'h', 'n' and 'b'. */
const ITEM_FIELD = /^\d+$/;

/**
 * `McpKeyValueStore` on Redis (ioredis). While Redis is unreachable every operation rejects at once with
 * `McpStoreUnavailableError` and the connection keeps retrying. The `redis` option creates one.
 * @publicApi
 * @example
 * const store = await McpRedisStore.connect({ url: 'redis://localhost:6379', keyPrefix: 'weather:' });
 */
export class McpRedisStore implements McpKeyValueStore {
  private constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
  ) {}

  /** Connects and waits until Redis answers; rejects with `McpStoreUnavailableError` if it cannot. */
  static async connect(options: McpRedisOptions, logger: McpRedisLogger = new Logger('McpRedisStore')): Promise<McpRedisStore> {
    const connection = await openRedisConnection(options, 'store', logger);
    return new McpRedisStore(connection, options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const json = await this.run((client) => client.get(this.key(key)));
    return json === null ? undefined : decodeValue<T>(json);
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    const json = encodeValue(value);
    await this.run((client) => client.set(this.key(key), json, 'PX', ttlMs));
  }

  async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const json = encodeValue(value);
    return (await this.run((client) => client.set(this.key(key), json, 'PX', ttlMs, 'NX'))) === 'OK';
  }

  async compareAndSet<T>(key: string, expected: T | undefined, next: T, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const json = encodeValue(next);
    const args = expected === undefined ? ['1', ''] : ['0', encodeValue(expected, 'expected value')];
    return (await this.run((client) => client.eval(COMPARE_AND_SET, 1, this.key(key), ...args, json, ttlMs))) === 1;
  }

  async deleteIfEquals<T>(key: string, expected: T): Promise<boolean> {
    const json = encodeValue(expected, 'expected value');
    return (await this.run((client) => client.eval(DELETE_IF_EQUALS, 1, this.key(key), json))) === 1;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    assertTtl(ttlMs);
    return Number(await this.run((client) => client.eval(INCREMENT, 1, this.key(key), ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.run((client) => client.del(this.key(key)));
  }

  async append<T>(key: string, value: T, maxLength: number, ttlMs: number, options: AppendOptions<T> = {}): Promise<void> {
    assertMaxLength(maxLength);
    assertTtl(ttlMs);
    const { json } = appendedText(value, options);
    await this.run((client) => client.eval(APPEND, 1, this.key(key), json, maxLength, options.maxBytes ?? 0, ttlMs));
  }

  async list<T>(key: string): Promise<T[]> {
    const fullKey = this.key(key);
    let items: string[];
    try {
      items = await this.hashItems(fullKey);
    } catch (error) {
      if (!isWrongType(error)) throw error;
      // A Redis list, as releases up to 0.1 stored lists; a plain value answers WRONGTYPE here too.
      try {
        items = await this.run((client) => client.lrange(fullKey, 0, -1));
      } catch (again) {
        // An append converted the list between the two reads: it is a hash now (a plain value fails again).
        if (!isWrongType(again)) throw again;
        items = await this.hashItems(fullKey);
      }
    }
    return items.map((item) => decodeValue<T>(item));
  }

  /** A list's items in order. One HGETALL, sorted here: it costs Redis about half what an ordered read in a script does. */
  private async hashItems(fullKey: string): Promise<string[]> {
    const hash = await this.run((client) => client.hgetall(fullKey));
    const fields = Object.keys(hash).filter((field) => ITEM_FIELD.test(field));
    return fields.sort((a, b) => Number(a) - Number(b)).map((field) => hash[field]);
  }

  async reserveSlot(member: string, sets: readonly McpSlotSet[], ttlMs: number): Promise<number> {
    assertTtl(ttlMs);
    if (sets.length === 0) return -1;
    const [full] = await this.runAdmit(member, undefined, sets, ttlMs);
    return full;
  }

  async admit(member: string, window: McpWindowCounter | undefined, sets: readonly McpSlotSet[], ttlMs: number): Promise<McpAdmission> {
    assertTtl(ttlMs);
    if (window) assertTtl(window.ms);
    if (!window && sets.length === 0) return { admitted: true };
    const [full, retryAfterMs] = await this.runAdmit(member, window, sets, ttlMs);
    if (full === -1) return { admitted: true };
    if (full === -2) return { admitted: false, fullWindow: true, retryAfterMs };
    return { admitted: false, fullWindow: false, fullSet: full };
  }

  async releaseSlot(member: string, setKeys: readonly string[]): Promise<void> {
    if (setKeys.length === 0) return;
    await this.run((client) => setKeys.reduce((batch, key) => batch.zrem(this.key(key), member), client.multi()).exec());
  }

  async touch(key: string, ttlMs: number, slot?: { member: string; setKeys: readonly string[] }): Promise<boolean> {
    assertTtl(ttlMs);
    const record = this.key(key);
    const sets = (slot?.setKeys ?? []).map((setKey) => this.key(setKey));
    const member = slot?.member ?? '';
    if (sets.length === 0) return (await this.run((client) => client.pexpire(record, ttlMs))) === 1;
    // A script's keys must share a Redis Cluster slot: the sets do (their tenant tag), the record may not, so there
    // the record goes first on its own.
    if (this.connection.client.isCluster) {
      if ((await this.run((client) => client.pexpire(record, ttlMs))) !== 1) return false;
      return (await this.run((client) => client.eval(TOUCH, sets.length, ...sets, ttlMs, member, '0'))) === 1;
    }
    return (await this.run((client) => client.eval(TOUCH, sets.length + 1, record, ...sets, ttlMs, member, '1'))) === 1;
  }

  /** PING: rejects with `McpStoreUnavailableError` while Redis cannot be reached. */
  async ping(): Promise<void> {
    await this.run((client) => client.ping());
  }

  /** Quits the connection; later operations reject. */
  async close(): Promise<void> {
    await closeRedisClient(this.connection.client);
  }

  private async runAdmit(
    member: string,
    window: McpWindowCounter | undefined,
    sets: readonly McpSlotSet[],
    ttlMs: number,
  ): Promise<[number, number]> {
    const keys = [...(window ? [window.key] : []), ...sets.map((set) => set.key)].map((key) => this.key(key));
    const windowArgs = window ? ['1', window.limit, window.ms] : ['0', 0, 0];
    const limits = sets.map((set) => set.limit);
    const answer = await this.run((client) => client.eval(ADMIT, keys.length, ...keys, member, ttlMs, ...windowArgs, ...limits));
    const [full, retryAfterMs] = answer as [number, number];
    return [Number(full), Number(retryAfterMs)];
  }

  private key(key: string): string {
    return this.prefix + key;
  }

  private run<T>(command: (client: RedisClient) => Promise<T>): Promise<T> {
    return runCommand(this.connection, command);
  }
}

function isWrongType(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('WRONGTYPE');
}
