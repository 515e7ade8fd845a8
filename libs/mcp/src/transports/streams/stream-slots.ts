import { randomUUID } from 'node:crypto';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpKeyValueStore } from '../../stores/key-value.store.js';
import { tenantSlotKey } from '../../stores/store-key.js';

/** One counted stream: renewed on each keep-alive, released when its socket closes. */
export interface McpStreamSlot {
  renew(): void;
  release(): void;
}

/** A place taken by {@link McpStreamSlots.reserve} and not connected within this long goes back. */
const UNCLAIMED_MS = 10_000;
/** Counts a stream that is admitted elsewhere (a POST stream, admitted with its call) whatever the cap. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

/**
 * `limits.maxStreamsPerTenant`, counted in the store (so across instances with `redis`): a slot lives three
 * keep-alives and is renewed by each, so a killed instance's places come back. `reserve` takes the place before the
 * response starts (a refusal is still an HTTP 429); the tenant's next `claim`, as the stream connects, takes it over.
 */
export class McpStreamSlots {
  /** Per tenant, the places reserved and not yet connected, oldest first. */
  private readonly reserved = new Map<string, Array<{ member: string; timer: NodeJS.Timeout }>>();

  constructor(
    private readonly store: McpKeyValueStore,
    private readonly options: McpResolvedOptions,
  ) {}

  /** Takes one of `tenant`'s places for the stream about to open; false when all are taken. Rejects while the store is down. */
  async reserve(tenant: string): Promise<boolean> {
    const member = randomUUID();
    const full = await this.store.reserveSlot(
      member,
      [{ key: this.key(tenant), limit: this.options.limits.maxStreamsPerTenant }],
      this.leaseMs,
    );
    if (full >= 0) return false;
    const timer = setTimeout(() => this.unclaim(tenant, member), UNCLAIMED_MS);
    timer.unref();
    let places = this.reserved.get(tenant);
    if (!places) this.reserved.set(tenant, (places = []));
    places.push({ member, timer });
    return true;
  }

  /** The slot of a stream that connects now: a place `reserve` took, or a new one counted without the cap. */
  claim(tenant: string): McpStreamSlot {
    const places = this.reserved.get(tenant);
    const place = places?.shift();
    if (places?.length === 0) this.reserved.delete(tenant);
    if (place) clearTimeout(place.timer);
    const member = place?.member ?? randomUUID();
    const key = this.key(tenant);
    // Renewing with no cap: a counted member is only refreshed; one lost meanwhile (store outage) is counted again.
    const renew = () => void this.store.reserveSlot(member, [{ key, limit: UNCAPPED }], this.leaseMs).catch(() => undefined);
    if (!place) renew();
    let released = false;
    return {
      renew: () => {
        if (!released) renew();
      },
      release: () => {
        if (released) return;
        released = true;
        void this.store.releaseSlot(member, [key]).catch(() => undefined);
      },
    };
  }

  private unclaim(tenant: string, member: string): void {
    const places = this.reserved.get(tenant);
    const index = places?.findIndex((place) => place.member === member) ?? -1;
    if (index < 0) return;
    places!.splice(index, 1);
    if (places!.length === 0) this.reserved.delete(tenant);
    void this.store.releaseSlot(member, [this.key(tenant)]).catch(() => undefined);
  }

  private get leaseMs(): number {
    return this.options.http.streams.keepAliveMs * 3;
  }

  private key(tenant: string): string {
    return tenantSlotKey('streams', tenant);
  }
}
