import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../interfaces/mcp-module-options.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import { isFinal, type McpJobRecord } from './job.record.js';

const MAX_LISTED_JOBS = 1_000;
/** Writers of one job are its worker's progress, its outcome and a cancellation: a few at most. */
const MAX_UPDATE_ATTEMPTS = 20;

/**
 * Job records, keyed by tenant: a job id from another tenant simply does not exist (no existence leak).
 * Ids are random (unguessable) even so.
 */
@Injectable()
export class McpJobStore {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  async create(tenant: string, tool: string, estimatedSeconds?: number): Promise<McpJobRecord> {
    const now = new Date().toISOString();
    const record: McpJobRecord = {
      id: `job_${randomBytes(18).toString('base64url')}`,
      tenant,
      tool,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
      ttlMs: this.options.jobs.resultTtlMs,
      ...(estimatedSeconds !== undefined && { estimatedSeconds }),
    };
    await this.store.set(this.key(tenant, record.id), record, record.ttlMs);
    await this.store.append(this.listKey(tenant), record.id, MAX_LISTED_JOBS, record.ttlMs);
    return record;
  }

  get(tenant: string, jobId: string): Promise<McpJobRecord | undefined> {
    return this.store.get<McpJobRecord>(this.key(tenant, jobId));
  }

  /**
   * Applies `change` unless the job is already final (a cancelled job stays cancelled). A compare-and-set, so a
   * cancellation on one instance and the outcome on another cannot overwrite each other: the first to land wins.
   */
  async update(tenant: string, jobId: string, change: Partial<McpJobRecord>): Promise<McpJobRecord | undefined> {
    const key = this.key(tenant, jobId);
    for (let attempt = 1; ; attempt++) {
      const current = await this.get(tenant, jobId);
      if (!current || isFinal(current.status)) return current;
      const next: McpJobRecord = { ...current, ...change, updatedAt: new Date().toISOString() };
      if (await this.store.compareAndSet(key, current, next, next.ttlMs)) return next;
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
    return `job:${tenant}:${jobId}`;
  }

  private listKey(tenant: string): string {
    return `jobs-of:${tenant}`;
  }
}
