import type { McpKeyValueStore } from './key-value.store.js';
import { assertMaxLength, assertTtl, decodeValue, encodeValue, NOT_AN_INTEGER, WRONG_TYPE } from './store-values.js';

/** A key holds JSON text or a list of JSON texts, as a Redis string or list would. */
type Entry = { kind: 'value'; json: string; expiresAt: number } | { kind: 'list'; items: string[]; expiresAt: number };

/**
 * The default store: process memory with TTLs and a bound on the number of keys (the oldest go first), so a
 * flood of sessions cannot exhaust memory. Expired entries are dropped lazily and by a periodic sweep.
 * Behaves like `McpRedisStore` (JSON copies, the same errors), so code tested here runs unchanged on Redis.
 * @publicApi
 */
export class McpMemoryStore implements McpKeyValueStore {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly maxKeys = 100_000,
    sweepIntervalMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs);
    this.sweeper.unref();
  }

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.live(key);
    return entry && decodeValue<T>(this.valueOf(entry));
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    this.write(key, { kind: 'value', json: encodeValue(value), expiresAt: this.now() + ttlMs });
  }

  async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const json = encodeValue(value);
    if (this.live(key)) return false;
    this.write(key, { kind: 'value', json, expiresAt: this.now() + ttlMs });
    return true;
  }

  async compareAndSet<T>(key: string, expected: T | undefined, next: T, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const json = encodeValue(next);
    const expectedJson = expected === undefined ? undefined : encodeValue(expected, 'expected value');
    const entry = this.live(key);
    const current = entry && this.valueOf(entry);
    if (current !== expectedJson) return false;
    this.write(key, { kind: 'value', json, expiresAt: this.now() + ttlMs });
    return true;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    assertTtl(ttlMs);
    const entry = this.live(key);
    if (!entry) {
      this.write(key, { kind: 'value', json: '1', expiresAt: this.now() + ttlMs });
      return 1;
    }
    const current = decodeValue<unknown>(this.valueOf(entry));
    if (typeof current !== 'number' || !Number.isSafeInteger(current + 1)) throw new Error(NOT_AN_INTEGER);
    this.write(key, { kind: 'value', json: String(current + 1), expiresAt: entry.expiresAt });
    return current + 1;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async append<T>(key: string, value: T, maxLength: number, ttlMs: number): Promise<void> {
    assertMaxLength(maxLength);
    assertTtl(ttlMs);
    const json = encodeValue(value);
    const entry = this.live(key);
    if (entry?.kind === 'value') throw new Error(WRONG_TYPE);
    const items = entry?.items ?? [];
    items.push(json);
    if (items.length > maxLength) items.splice(0, items.length - maxLength);
    this.write(key, { kind: 'list', items, expiresAt: this.now() + ttlMs });
  }

  async list<T>(key: string): Promise<T[]> {
    const entry = this.live(key);
    if (entry?.kind === 'value') throw new Error(WRONG_TYPE);
    return (entry?.items ?? []).map((item) => decodeValue<T>(item));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  /** The JSON text of a plain value; a list answers as Redis GET does on one. */
  private valueOf(entry: Entry): string {
    if (entry.kind === 'list') throw new Error(WRONG_TYPE);
    return entry.json;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, entry: Entry): void {
    // Re-inserting moves the key to the end, so Map order is least-recently-written first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxKeys) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
