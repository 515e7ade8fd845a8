import type { McpKeyValueStore } from './key-value.store.js';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * The default store: process memory with TTLs and a bound on the number of keys (the oldest go first), so a
 * flood of sessions cannot exhaust memory. Expired entries are dropped lazily and by a periodic sweep.
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
    return this.live(key)?.value as T | undefined;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    this.write(key, value, ttlMs);
  }

  async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.write(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async append<T>(key: string, value: T, maxLength: number, ttlMs: number): Promise<void> {
    const current = (this.live(key)?.value as T[] | undefined) ?? [];
    current.push(value);
    if (current.length > maxLength) current.splice(0, current.length - maxLength);
    this.write(key, current, ttlMs);
  }

  async list<T>(key: string): Promise<T[]> {
    return [...((this.live(key)?.value as T[] | undefined) ?? [])];
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, value: unknown, ttlMs: number): void {
    // Re-inserting moves the key to the end, so Map order is least-recently-written first.
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
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
