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
 * One GET stream per session across instances, claimed in the store; a dead instance's claim is taken over, and a
 * claim lives three keep-alives unless renewed, so a failed release keeps another instance out (409) that long at most.
 */
export class McpSessionStreamClaims {
  readonly ttlMs: number;
  private readonly mine: GetStreamClaim;

  constructor(
    private readonly store: McpKeyValueStore,
    private readonly lease: McpInstanceLease,
    /** `http.streams.keepAliveMs`: also how often the holder renews its claim ({@link refresh}). */
    readonly renewMs: number,
  ) {
    this.ttlMs = renewMs * KEEP_ALIVES_PER_LEASE;
    this.mine = { instance: lease.id };
  }

  /** True when this instance now holds the session's GET stream; a claim naming this instance is a leftover, taken back. */
  async claim(sessionId: string): Promise<boolean> {
    const key = claimKey(sessionId);
    if (await this.store.setIfAbsent(key, this.mine, this.ttlMs)) return true;
    const held = await this.store.get<GetStreamClaim>(key);
    if (held === undefined) return this.store.setIfAbsent(key, this.mine, this.ttlMs);
    if (held.instance !== this.lease.id && (await this.lease.isAlive(held.instance))) return false;
    // Atomic: of two instances taking over the same dead claim, one wins.
    return this.store.compareAndSet(key, held, this.mine, this.ttlMs);
  }

  /** Extends the claim (or takes a lapsed one back); false when another instance holds it now: the stream here must end. */
  async refresh(sessionId: string): Promise<boolean> {
    const key = claimKey(sessionId);
    return (await this.store.compareAndSet(key, this.mine, this.mine, this.ttlMs)) || this.store.setIfAbsent(key, this.mine, this.ttlMs);
  }

  /** Lets go of the session's claim if this instance still holds it (another may have taken it over). */
  async release(sessionId: string): Promise<void> {
    await this.store.deleteIfEquals(claimKey(sessionId), this.mine);
  }
}

const claimKey = (sessionId: string) => storeKey('get-stream', sessionId);
