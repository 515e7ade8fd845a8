import type { McpKeyValueStore } from '../../stores/key-value.store.js';
import { storeKey } from '../../stores/store-key.js';
import type { McpInstanceLease } from '../../sessions/mcp-instance-lease.service.js';

/** Who holds a session's GET stream, as the store keeps it. */
interface GetStreamClaim {
  instance: string;
}

/** A claim lives this many keep-alive intervals unless renewed (as a stream's `limits.maxStreamsPerTenant` slot). */
const KEEP_ALIVES_PER_LEASE = 3;

/**
 * The one-GET-stream-per-session rule across instances: the instance opening a session's GET stream claims
 * `get-stream:<session>` in the shared store, and lets go when the stream ends. A claim whose instance's lease
 * expired is taken over, so a dead instance blocks nobody for longer than its lease. The claim itself is a short
 * lease, three `http.streams.keepAliveMs`, renewed every keep-alive interval while the stream is open: a release that
 * failed (a store outage as the stream closed) keeps the session's next GET on another instance out (409) for
 * that long at most, and one on the instance it names takes it back at once.
 */
export class McpSessionStreamClaims {
  /** How long a claim lives unless renewed. */
  readonly ttlMs: number;

  constructor(
    private readonly store: McpKeyValueStore,
    private readonly lease: McpInstanceLease,
    /** `http.streams.keepAliveMs`: also how often the holder renews its claim ({@link refresh}). */
    readonly renewMs: number,
  ) {
    this.ttlMs = renewMs * KEEP_ALIVES_PER_LEASE;
  }

  /**
   * True when this instance now holds the session's GET stream. The caller has checked that it holds none
   * itself, so a claim naming this instance is a leftover (its release failed) and is taken back.
   */
  async claim(sessionId: string): Promise<boolean> {
    const key = claimKey(sessionId);
    const mine: GetStreamClaim = { instance: this.lease.id };
    if (await this.store.setIfAbsent(key, mine, this.ttlMs)) return true;
    const held = await this.store.get<GetStreamClaim>(key);
    if (held === undefined) return this.store.setIfAbsent(key, mine, this.ttlMs);
    if (held.instance !== this.lease.id && (await this.lease.isAlive(held.instance))) return false;
    // Atomic: of two instances taking over the same dead claim, one wins.
    return this.store.compareAndSet(key, held, mine, this.ttlMs);
  }

  /**
   * Extends the claim's life while this instance's stream is open: every `renewMs`. A claim that lapsed meanwhile
   * (renewals failed through a store outage) is taken again if nobody took it since. False when another instance
   * holds it now: the stream here must end, the session has one elsewhere.
   */
  async refresh(sessionId: string): Promise<boolean> {
    const key = claimKey(sessionId);
    const mine: GetStreamClaim = { instance: this.lease.id };
    return (await this.store.compareAndSet(key, mine, mine, this.ttlMs)) || this.store.setIfAbsent(key, mine, this.ttlMs);
  }

  /** Lets go of the session's claim if this instance still holds it (another may have taken it over). */
  async release(sessionId: string): Promise<void> {
    const mine: GetStreamClaim = { instance: this.lease.id };
    await this.store.deleteIfEquals(claimKey(sessionId), mine);
  }
}

function claimKey(sessionId: string): string {
  return storeKey('get-stream', sessionId);
}
