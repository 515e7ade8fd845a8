/**
 * The storage every stateful feature goes through (sessions, stream events, jobs, idempotency keys), so one
 * process or many (Redis) serve the same clients. Values are JSON-serialisable records: every implementation
 * stores their JSON text, so what `get` returns is a copy that went through `JSON.stringify` (a `Date` comes
 * back as a string, `undefined` members are gone). TTLs are positive whole milliseconds.
 *
 * The Redis store rejects with `McpStoreUnavailableError` while Redis cannot be reached; callers answer with a
 * retryable error (HTTP 503) rather than a 500.
 * @publicApi
 */
export interface McpKeyValueStore {
  /** The value, or undefined when the key is absent or expired. */
  get<T>(key: string): Promise<T | undefined>;
  /** Stores `value` for `ttlMs` milliseconds (replacing any value, list or counter the key held). */
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  /** Stores only if absent; true when this call stored it (atomic: the basis of idempotency). */
  setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean>;
  /**
   * Replaces the value with `next` (for `ttlMs`) only if it still equals `expected`, compared by JSON text, so
   * pass back the value `get` returned. `expected` undefined means "only if absent". True when this call wrote.
   * Atomic: two callers that read the same value cannot both win (job state transitions rely on it).
   */
  compareAndSet<T>(key: string, expected: T | undefined, next: T, ttlMs: number): Promise<boolean>;
  /**
   * Adds one to an integer counter and returns the new value; the first increment creates it at 1 and starts
   * its `ttlMs` (later ones leave the expiry alone: a fixed window, as rate limits want). Atomic.
   */
  increment(key: string, ttlMs: number): Promise<number>;
  delete(key: string): Promise<void>;
  /**
   * Deletes the key only if its value still equals `expected` (compared by JSON text, as `compareAndSet` does); true
   * when this call deleted it. Atomic: a holder lets go of its own claim without deleting one another caller wrote
   * after its read.
   */
  deleteIfEquals<T>(key: string, expected: T): Promise<boolean>;
  /**
   * Appends to a bounded list and refreshes its TTL. The oldest items are dropped while the list holds more than
   * `maxLength` items or, with `options.maxBytes`, more than that many bytes of JSON text (UTF-8) in all. The item
   * just appended is never dropped: one larger than `maxBytes` on its own is kept alone, until the next append.
   * With `options.oversized`, a value whose text alone is over `maxBytes` is not kept: `oversized` is kept in its
   * place (a stand-in naming what was left out). Atomic. The byte total is kept beside the list, so no append
   * re-reads the items it keeps (on Redis one costs O(1) per item appended or dropped, whatever the length of the list).
   */
  append<T>(key: string, value: T, maxLength: number, ttlMs: number, options?: { maxBytes?: number; oversized?: T }): Promise<void>;
  /** The list, oldest first; empty when the key is absent or expired. */
  list<T>(key: string): Promise<T[]>;
  /**
   * Counts `member` in each of the bounded sets `sets` for `ttlMs` (a member already counted gets its expiry
   * refreshed), all or none: returns -1 when counted, else the index of the first set that already holds
   * `limit` other live members. Expired members are swept as part of the call, so counts stay exact without
   * any scan of the data (the basis of per-tenant quotas). Atomic; one round trip.
   */
  reserveSlot(member: string, sets: readonly McpSlotSet[], ttlMs: number): Promise<number>;
  /**
   * {@link reserveSlot} behind a fixed-window counter, all or none, in one atomic call (per-tenant call
   * admission: a rate limit and a concurrency cap in one round trip). When `window` has already counted
   * `window.limit` in its current window nothing changes and the answer names the window with the ms until it
   * ends; else `member` is reserved in `sets` as `reserveSlot` does and, when it was, the window counts one
   * more (its first count starts the window of `window.ms`).
   */
  admit(member: string, window: McpWindowCounter | undefined, sets: readonly McpSlotSet[], ttlMs: number): Promise<McpAdmission>;
  /** Uncounts `member` from each set in `setKeys` (a deleted record frees its place at once). */
  releaseSlot(member: string, setKeys: readonly string[]): Promise<void>;
  /**
   * Keeps a record alive: refreshes the TTL of `key` to `ttlMs` (its value untouched) and, in the same atomic call,
   * the expiry of `slot.member` in each of the slot sets `slot.setKeys` (counted again if it had expired there,
   * whatever the limit: it was admitted already). False, and nothing refreshed, when `key` is absent or expired.
   * One round trip, where a read-and-rewrite plus a `reserveSlot` took three (sessions call it on every request).
   */
  touch(key: string, ttlMs: number, slot?: { member: string; setKeys: readonly string[] }): Promise<boolean>;
  /** Rejects when the store cannot be reached (health checks); absent for a store in this process. */
  ping?(): Promise<void>;
  close?(): Promise<void>;
}

/**
 * One bounded set of {@link McpKeyValueStore.reserveSlot}: its key and how many live members it may hold. With
 * Redis Cluster the keys of one call must share a hash slot: give them the same `{tag}` (see `storeKey`'s
 * `tenantSlotKey`), as every set of the library does with the tenant.
 * @publicApi
 */
export interface McpSlotSet {
  key: string;
  limit: number;
}

/** The fixed-window counter of {@link McpKeyValueStore.admit}: at most `limit` counts per window of `ms`. @publicApi */
export interface McpWindowCounter {
  key: string;
  limit: number;
  ms: number;
}

/**
 * What {@link McpKeyValueStore.admit} decided: admitted, or refused by the window (with the ms until it ends) or
 * by the set at `fullSet` (index in `sets`).
 * @publicApi
 */
export type McpAdmission =
  | { admitted: true }
  | { admitted: false; fullWindow: true; retryAfterMs: number }
  | { admitted: false; fullWindow: false; fullSet: number };

/** Injection token of the store. @publicApi */
export const MCP_STORE = Symbol('MCP_STORE');
