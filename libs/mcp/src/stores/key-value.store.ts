/**
 * The storage every stateful feature goes through (sessions, stream events, jobs, idempotency keys), so one
 * process or many (Redis) serve the same clients. Values are JSON-serialisable records.
 * @publicApi
 */
export interface McpKeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  /** Stores `value` for `ttlMs` milliseconds. */
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  /** Stores only if absent; true when this call stored it (atomic: the basis of idempotency). */
  setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Appends to a bounded list (oldest dropped beyond `maxLength`) and refreshes its TTL. */
  append<T>(key: string, value: T, maxLength: number, ttlMs: number): Promise<void>;
  list<T>(key: string): Promise<T[]>;
  close?(): Promise<void>;
}

/** Injection token of the store. @publicApi */
export const MCP_STORE = Symbol('MCP_STORE');
