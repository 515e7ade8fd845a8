import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_BUS, type McpMessageBus } from '../core/message-bus.interface.js';
import { DEFAULT_INSTANCE_LEASE } from '../options/declarations/redis.options.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import { storeKey } from '../stores/store-key.js';
import { McpStoreLifecycle } from '../stores/store.lifecycle.js';

/** The store key of an instance's lease. */
export function leaseKey(instanceId: string): string {
  return storeKey('lease', instanceId);
}

/**
 * This instance's id and liveness lease: with other instances it renews `lease:<id>` in the shared store, so a
 * holder of a stream that died (lease expired) can be told from one that is only elsewhere. In memory every holder
 * is alive.
 */
@Injectable()
export class McpInstanceLease implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpInstanceLease');
  /** Random per process (a restart is a new instance); hex, so ids built on it (`<instance>_<stream>`) split at `_`. */
  readonly id = randomBytes(6).toString('hex');
  private timer?: NodeJS.Timeout;
  private failing = false;

  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_BUS) private readonly bus: McpMessageBus,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    // Only for the order of the shutdown hooks: the lease is given back before the store closes (docs/architecture.md).
    @Optional() _closing?: McpStoreLifecycle,
  ) {}

  /** True when other instances may hold what a session uses (the bus reaches beyond this process). */
  get spansInstances(): boolean {
    return this.bus.crossesInstances;
  }

  /** How often the lease is renewed: also how often a follower checks the holder it follows. */
  get renewMs(): number {
    return this.lease.renewMs;
  }

  /** `redis.instanceLease`, or its defaults in memory mode (one instance: nothing is written). */
  private get lease(): { ttlMs: number; renewMs: number } {
    return this.options.redis?.instanceLease ?? DEFAULT_INSTANCE_LEASE;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.spansInstances) return;
    await this.renew();
    this.timer = setInterval(() => void this.renew(), this.lease.renewMs);
    this.timer.unref();
  }

  /**
   * Renewal stops only once the HTTP server has closed: while shutdown drains calls, streams followed from
   * other instances still end properly. The lease is then deleted (best effort: the store may be closing too);
   * if that fails it simply expires.
   */
  async onApplicationShutdown(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.store.delete(leaseKey(this.id)).catch(() => undefined);
  }

  /** False only for another instance whose lease is gone (an unknown holder is alive); rejects while the store is down. */
  async isAlive(instanceId: string | undefined): Promise<boolean> {
    if (!this.spansInstances || instanceId === undefined || instanceId === this.id) return true;
    return (await this.store.get(leaseKey(instanceId))) !== undefined;
  }

  private async renew(): Promise<void> {
    try {
      await this.store.set(leaseKey(this.id), { renewedAt: Date.now() }, this.lease.ttlMs);
      if (this.failing) this.logger.log('Instance lease renewed again');
      this.failing = false;
    } catch (error) {
      // Once per outage: other instances will treat this one's sessions as gone until it renews again.
      if (!this.failing) this.logger.warn(`Instance lease not renewed: ${error instanceof Error ? error.message : String(error)}`);
      this.failing = true;
    }
  }
}
