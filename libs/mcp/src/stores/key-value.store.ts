/**
 * The storage of every stateful feature (sessions, stream events, jobs, idempotency keys), in one process or many
 * (Redis). Values are stored as JSON text, so `get` returns a `JSON.stringify` copy. TTLs are positive whole ms.
 * Redis rejects with `McpStoreUnavailableError` while unreachable (callers answer a retryable 503).
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
   * Writes `next` only if the value still equals `expected` (by JSON text; undefined: absent). True when this call
   * wrote. Atomic: two callers that read the same value cannot both win (job state transitions rely on it).
   */
  compareAndSet<T>(key: string, expected: T | undefined, next: T, ttlMs: number): Promise<boolean>;
  /** Adds one to an integer counter, returning it; the first increment starts its `ttlMs` (a fixed window). Atomic. */
  increment(key: string, ttlMs: number): Promise<number>;
  delete(key: string): Promise<void>;
  /** Deletes the key only if its value still equals `expected` (by JSON text); true when this call deleted it. Atomic. */
  deleteIfEquals<T>(key: string, expected: T): Promise<boolean>;
  /**
   * Appends to a list and refreshes its TTL, dropping the oldest items beyond `maxLength` or `options.maxBytes` of
   * JSON text; the new item always stays (alone if over `maxBytes`, or replaced by `options.oversized`). Atomic,
   * O(1) per item appended or dropped (the byte total is kept beside the list).
   */
  append<T>(key: string, value: T, maxLength: number, ttlMs: number, options?: { maxBytes?: number; oversized?: T }): Promise<void>;
  /** The list, oldest first; empty when the key is absent or expired. */
  list<T>(key: string): Promise<T[]>;
  /**
   * Counts `member` in every set of `sets` for `ttlMs`, all or none: -1 when counted, else the index of the first
   * set holding `limit` other live members. Expired members are swept in the call (per-tenant quotas). Atomic.
   */
  reserveSlot(member: string, sets: readonly McpSlotSet[], ttlMs: number): Promise<number>;
  /**
   * {@link reserveSlot} behind a fixed-window counter in one atomic call (rate limit plus concurrency cap). A full
   * window changes nothing and names the ms until it ends; else the window counts one more once `member` is reserved.
   */
  admit(member: string, window: McpWindowCounter | undefined, sets: readonly McpSlotSet[], ttlMs: number): Promise<McpAdmission>;
  /** Uncounts `member` from each set in `setKeys` (a deleted record frees its place at once). */
  releaseSlot(member: string, setKeys: readonly string[]): Promise<void>;
  /**
   * Refreshes the TTL of `key` and, atomically, `slot.member` in each set of `slot.setKeys` (counted again if
   * expired, whatever the limit). False, and nothing refreshed, when `key` is absent. Sessions call it per request.
   */
  touch(key: string, ttlMs: number, slot?: { member: string; setKeys: readonly string[] }): Promise<boolean>;
  /** Rejects when the store cannot be reached (health checks); absent for a store in this process. */
  ping?(): Promise<void>;
  close?(): Promise<void>;
}

/**
 * One bounded set of {@link McpKeyValueStore.reserveSlot}. On Redis Cluster the keys of one call must share a
 * `{tag}` (see `tenantSlotKey`).
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

/** What {@link McpKeyValueStore.admit} decided: admitted, or refused by the window or by the set at `fullSet`. @publicApi */
export type McpAdmission =
  | { admitted: true }
  | { admitted: false; fullWindow: true; retryAfterMs: number }
  | { admitted: false; fullWindow: false; fullSet: number };

/** Injection token of the store. @publicApi */
export const MCP_STORE = Symbol('MCP_STORE');
