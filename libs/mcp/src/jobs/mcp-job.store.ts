import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import { storeKey } from '../stores/store-key.js';
import { McpTenantQuotas } from '../stores/tenant-quotas.js';
import { isFinal, type McpJobRecord } from './job.record.js';
import { McpJobSlots } from './job-slots.js';

const MAX_LISTED_JOBS = 1_000;
/** What `create` generates: `job_` and 18 random bytes in base64url. Anything else names no job. */
const JOB_ID_PATTERN = /^job_[A-Za-z0-9_-]{24}$/;

/** True for an id of the generated form; lookups of any other string answer "not found" without a store read. */
export function isJobId(id: unknown): id is string {
  return typeof id === 'string' && JOB_ID_PATTERN.test(id);
}

/** A fresh job id of the generated form (unguessable). */
export function newJobId(): string {
  return `job_${randomBytes(18).toString('base64url')}`;
}
/** Writers of one job are its worker's progress, its outcome and a cancellation: a few at most. */
const MAX_UPDATE_ATTEMPTS = 20;

/**
 * Job records, keyed by tenant: another tenant's job id does not exist (no existence leak); ids are unguessable even
 * so. Each record counts against its tenant's `limits.maxStoredKeysPerTenant` for its TTL.
 */
@Injectable()
export class McpJobStore {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly quotas: McpTenantQuotas,
    private readonly slots: McpJobSlots,
  ) {}

  /** Records a new pending job; rejects with `McpQuotaExceededError` when the tenant holds its quota of records. */
  async create(tenant: string, tool: string, estimatedSeconds?: number, id = newJobId()): Promise<McpJobRecord> {
    const now = new Date().toISOString();
    const record: McpJobRecord = {
      id,
      tenant,
      tool,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
      ttlMs: this.options.jobs.resultTtlMs,
      ...(estimatedSeconds !== undefined && { estimatedSeconds }),
    };
    await this.quotas.require(tenant, 'job', this.key(tenant, record.id), record.ttlMs);
    await this.store.set(this.key(tenant, record.id), record, record.ttlMs);
    await this.store.append(this.listKey(tenant), record.id, MAX_LISTED_JOBS, record.ttlMs);
    return record;
  }

  async get(tenant: string, jobId: string): Promise<McpJobRecord | undefined> {
    return isJobId(jobId) ? this.store.get<McpJobRecord>(this.key(tenant, jobId)) : undefined;
  }

  /**
   * Applies `change` unless the job is already final (a cancelled job stays cancelled). A compare-and-set, so a
   * cancellation on one instance and the outcome on another cannot overwrite each other: the first to land wins.
   * The write that ends the job gives back its place among the tenant's queued-or-running jobs, exactly once.
   */
  async update(tenant: string, jobId: string, change: Partial<McpJobRecord>): Promise<McpJobRecord | undefined> {
    const key = this.key(tenant, jobId);
    for (let attempt = 1; ; attempt++) {
      const current = await this.get(tenant, jobId);
      if (!current || isFinal(current.status)) return current;
      const next: McpJobRecord = { ...current, ...change, updatedAt: new Date().toISOString() };
      if (await this.store.compareAndSet(key, current, next, next.ttlMs)) {
        // Should the store fail here, the place expires with the record instead.
        if (isFinal(next.status)) await this.slots.release(tenant, jobId).catch(() => undefined);
        return next;
      }
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw new Error(`Job ${jobId} changed under every one of ${MAX_UPDATE_ATTEMPTS} updates`);
    }
  }

  /** The tenant's jobs, newest first. */
  async list(tenant: string): Promise<McpJobRecord[]> {
    const ids = await this.store.list<string>(this.listKey(tenant));
    const records = await Promise.all(ids.reverse().map((id) => this.get(tenant, id)));
    return records.filter((record): record is McpJobRecord => record !== undefined);
  }

  private key(tenant: string, jobId: string): string {
    return storeKey('job', tenant, jobId);
  }

  private listKey(tenant: string): string {
    return storeKey('jobs-of', tenant);
  }
}
