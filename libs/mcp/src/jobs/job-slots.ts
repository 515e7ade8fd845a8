import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import { McpQuotaExceededError } from '../core/errors/quota-exceeded.error.js';
import { storeKey } from '../stores/store-key.js';

/**
 * A tenant's places for queued-or-running jobs (`jobs.maxQueuedPerTenant`): a slot set per tenant in the store (one
 * atomic call per job, across instances). A place whose job was lost with its instance expires with the job record.
 */
@Injectable()
export class McpJobSlots {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /** Takes a place for `jobId`; rejects with `McpQuotaExceededError` when the tenant has none left. */
  async take(tenant: string, jobId: string): Promise<void> {
    const limit = this.options.jobs.maxQueuedPerTenant;
    const full = await this.store.reserveSlot(jobId, [{ key: this.key(tenant), limit }], this.options.jobs.resultTtlMs);
    if (full >= 0) {
      throw new McpQuotaExceededError(
        `This tenant already has ${limit} jobs queued or running (jobs.maxQueuedPerTenant); retry once some have finished.`,
      );
    }
  }

  /** Gives the place back (a job that never took one changes nothing). */
  release(tenant: string, jobId: string): Promise<void> {
    return this.store.releaseSlot(jobId, [this.key(tenant)]);
  }

  private key(tenant: string): string {
    return storeKey('jobs-active', tenant);
  }
}
