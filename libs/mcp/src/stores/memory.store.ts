import type { McpAdmission, McpKeyValueStore, McpSlotSet, McpWindowCounter } from './key-value.store.js';
import { McpQuotaExceededError } from '../core/errors/quota-exceeded.error.js';
import { McpStoreMessages } from './store.messages.js';
import {
  appendedText,
  assertMaxLength,
  assertTtl,
  decodeValue,
  encodeValue,
  NOT_AN_INTEGER,
  WRONG_TYPE,
  type AppendOptions,
} from './store-values.js';

/** One item of a list: its JSON text and that text's size in UTF-8 bytes, measured once when it is appended. */
type ListItem = { json: string; bytes: number };

/** A key holds JSON text or a list of them, as in Redis; a list keeps its byte total, so only appends and drops are measured. */
type Entry = { kind: 'value'; json: string; expiresAt: number } | { kind: 'list'; items: ListItem[]; bytes: number; expiresAt: number };

/** The members of one slot set with their expiry, in the order they were last reserved. */
type SlotSet = Map<string, number>;

/** A full scan of a slot set (or of all keys at the cap) runs at most this often; the common path never scans. */
const FULL_SWEEP_INTERVAL_MS = 1_000;
const ALL_KEYS = Symbol('all keys');

/**
 * The default store: process memory with TTLs, behaving like `McpRedisStore` (JSON copies, the same errors). At
 * `maxKeys` a new key is refused with `McpQuotaExceededError` and nothing live is evicted.
 * @publicApi
 */
export class McpMemoryStore implements McpKeyValueStore {
  private readonly entries = new Map<string, Entry>();
  private readonly slotSets = new Map<string, SlotSet>();
  private readonly fullSweepAt = new Map<string | typeof ALL_KEYS, number>();
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
    this.writeValue(key, encodeValue(value), this.now() + ttlMs);
  }

  async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const json = encodeValue(value);
    if (this.live(key)) return false;
    this.writeValue(key, json, this.now() + ttlMs);
    return true;
  }

  async compareAndSet<T>(key: string, expected: T | undefined, next: T, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const json = encodeValue(next);
    const expectedJson = expected === undefined ? undefined : encodeValue(expected, 'expected value');
    const entry = this.live(key);
    const current = entry && this.valueOf(entry);
    if (current !== expectedJson) return false;
    this.writeValue(key, json, this.now() + ttlMs);
    return true;
  }

  async deleteIfEquals<T>(key: string, expected: T): Promise<boolean> {
    const expectedJson = encodeValue(expected, 'expected value');
    const entry = this.live(key);
    if (!entry || this.valueOf(entry) !== expectedJson) return false;
    this.entries.delete(key);
    return true;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    assertTtl(ttlMs);
    const entry = this.live(key);
    const current = entry ? decodeValue<unknown>(this.valueOf(entry)) : 0;
    if (typeof current !== 'number' || !Number.isSafeInteger(current + 1)) throw new Error(NOT_AN_INTEGER);
    this.writeValue(key, String(current + 1), entry?.expiresAt ?? this.now() + ttlMs);
    return current + 1;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async append<T>(key: string, value: T, maxLength: number, ttlMs: number, options: AppendOptions<T> = {}): Promise<void> {
    assertMaxLength(maxLength);
    assertTtl(ttlMs);
    const { maxBytes = Infinity } = options;
    const item = appendedText(value, options);
    const entry = this.live(key);
    if (entry?.kind === 'value') throw new Error(WRONG_TYPE);
    const items = entry?.items ?? [];
    items.push(item);
    let bytes = (entry?.bytes ?? 0) + item.bytes;
    let dropped = 0;
    // The item just appended stays, even alone over maxBytes (the contract's rule, as in the Redis store).
    while (items.length - dropped > maxLength || (bytes > maxBytes && items.length - dropped > 1)) bytes -= items[dropped++].bytes;
    items.splice(0, dropped);
    this.write(key, { kind: 'list', items, bytes, expiresAt: this.now() + ttlMs });
  }

  async list<T>(key: string): Promise<T[]> {
    const entry = this.live(key);
    if (entry?.kind === 'value') throw new Error(WRONG_TYPE);
    return (entry?.items ?? []).map((item) => decodeValue<T>(item.json));
  }

  async reserveSlot(member: string, sets: readonly McpSlotSet[], ttlMs: number): Promise<number> {
    assertTtl(ttlMs);
    return this.reserveNow(member, sets, ttlMs, this.now());
  }

  async admit(member: string, window: McpWindowCounter | undefined, sets: readonly McpSlotSet[], ttlMs: number): Promise<McpAdmission> {
    assertTtl(ttlMs);
    if (window) assertTtl(window.ms);
    const now = this.now();
    const counter = window && this.live(window.key);
    const counted = counter ? decodeValue<unknown>(this.valueOf(counter)) : 0;
    if (typeof counted !== 'number') throw new Error(NOT_AN_INTEGER);
    if (window && counter && counted >= window.limit) return { admitted: false, fullWindow: true, retryAfterMs: counter.expiresAt - now };
    const fullSet = this.reserveNow(member, sets, ttlMs, now);
    if (fullSet >= 0) return { admitted: false, fullWindow: false, fullSet };
    if (window) this.writeValue(window.key, String(counted + 1), counter?.expiresAt ?? now + window.ms);
    return { admitted: true };
  }

  /** Both of the above: -1 when `member` was counted in every set, else the index of the first full one. */
  private reserveNow(member: string, sets: readonly McpSlotSet[], ttlMs: number, now: number): number {
    const full = sets.findIndex(({ key, limit }) => {
      const slots = this.slotSets.get(key);
      if (!slots || slots.has(member)) return false;
      this.sweepSlots(key, slots, now, false);
      if (slots.size >= limit && this.mayFullSweep(key, now)) this.sweepSlots(key, slots, now, true);
      return slots.size >= limit;
    });
    if (full < 0)
      this.count(
        member,
        sets.map(({ key }) => key),
        now + ttlMs,
      );
    return full;
  }

  private count(member: string, setKeys: readonly string[], expiresAt: number): void {
    for (const key of setKeys) {
      let slots = this.slotSets.get(key);
      if (!slots) this.slotSets.set(key, (slots = new Map()));
      // Re-inserting keeps the map in last-reserved order, which the head sweep relies on.
      slots.delete(member);
      slots.set(member, expiresAt);
    }
  }

  async touch(key: string, ttlMs: number, slot?: { member: string; setKeys: readonly string[] }): Promise<boolean> {
    assertTtl(ttlMs);
    const entry = this.live(key);
    if (!entry) return false;
    const now = this.now();
    entry.expiresAt = now + ttlMs;
    if (slot) this.count(slot.member, slot.setKeys, now + ttlMs);
    return true;
  }

  async releaseSlot(member: string, setKeys: readonly string[]): Promise<void> {
    // An emptied set stays until the sweep: a tenant whose calls do not overlap would drop and rebuild it per call.
    for (const key of setKeys) this.slotSets.get(key)?.delete(member);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
    this.slotSets.clear();
    this.fullSweepAt.clear();
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

  private writeValue(key: string, json: string, expiresAt: number): void {
    this.write(key, { kind: 'value', json, expiresAt });
  }

  private write(key: string, entry: Entry): void {
    if (!this.entries.has(key) && this.entries.size >= this.maxKeys) {
      // Refuse rather than evict: the oldest key may be another tenant's idle session.
      if (this.mayFullSweep(ALL_KEYS, this.now())) this.sweep();
      if (this.entries.size >= this.maxKeys) throw new McpQuotaExceededError(McpStoreMessages.storeFull());
    }
    this.entries.set(key, entry);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    for (const [key, slots] of this.slotSets) this.sweepSlots(key, slots, now, true);
  }

  /**
   * Drops expired members: from the head only (amortised O(1): members are in last-reserved order) or through
   * the whole set (when it is full, or periodically), since members with a shorter TTL may sit behind others.
   */
  private sweepSlots(key: string, slots: SlotSet, now: number, whole: boolean): void {
    if (whole) {
      for (const [member, expiresAt] of slots) if (expiresAt <= now) slots.delete(member);
    } else {
      for (const [member, expiresAt] of slots) {
        if (expiresAt > now) break;
        slots.delete(member);
      }
    }
    // Only the periodic sweep drops an empty set: a head sweep runs as a member is about to be added to it.
    if (whole && slots.size === 0) {
      this.slotSets.delete(key);
      this.fullSweepAt.delete(key);
    }
  }

  private mayFullSweep(key: string | typeof ALL_KEYS, now: number): boolean {
    const last = this.fullSweepAt.get(key);
    if (last !== undefined && now >= last && now - last < FULL_SWEEP_INTERVAL_MS) return false;
    this.fullSweepAt.set(key, now);
    return true;
  }
}
