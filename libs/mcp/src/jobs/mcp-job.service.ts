import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import type { McpEnvelope, McpPendingEnvelope } from '../core/results/envelope.types.js';
import { envelopeToCallToolResult, errorResult } from '../core/results/mcp-result.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';
import { isFinal, type McpJobRecord, type McpTaskRunSpec } from './job.record.js';
import { MCP_JOB_QUEUE, type McpJobQueue } from './job-queue.interface.js';
import { MCP_JOB_WORKER, type McpJobWorker } from './job-worker.interface.js';
import { McpJobSlots } from './job-slots.js';
import { McpJobStore, newJobId } from './mcp-job.store.js';
import { McpGlobalPrefix } from '../options/mcp-global-prefix.js';

/** Accepting, reporting and cancelling jobs: the `pending` envelope and MCP tasks share it. */
@Injectable()
export class McpJobService {
  constructor(
    private readonly jobs: McpJobStore,
    @Inject(MCP_JOB_QUEUE) private readonly queue: McpJobQueue,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly slots: McpJobSlots,
    @Inject(MCP_JOB_WORKER) private readonly worker: McpJobWorker,
    @Optional() private readonly globalPrefix?: McpGlobalPrefix,
  ) {}

  /**
   * Records a job (within `jobs.maxQueuedPerTenant`, else `McpQuotaExceededError`) and queues it. When the queue
   * refuses (Redis down) the record is marked failed and the error propagates: the call answers UNAVAILABLE rather
   * than a pending envelope for a job that will never run. `task`: a task of the 2026-07-28 tasks extension.
   */
  async start(
    tool: string,
    args: Record<string, unknown>,
    context: McpToolContext,
    estimatedSeconds?: number,
    task?: McpTaskRunSpec,
  ): Promise<McpJobRecord> {
    const record = await this.open(context.tenant, tool, estimatedSeconds);
    try {
      await this.queue.submit({
        jobId: record.id,
        tenant: context.tenant,
        tool,
        args,
        principal: context.principal,
        protocolVersion: context.protocolVersion,
        transport: context.transport,
        ...(task && { task }),
      });
    } catch (error) {
      const result = errorResult(errorBody('UNAVAILABLE', 'The job could not be queued; retry the call.', { retryable: true }));
      await this.jobs.update(context.tenant, record.id, { status: 'error', result }).catch(() => undefined);
      throw error;
    }
    return record;
  }

  /**
   * Records a job that is not queued (a 2026-07-28 `inputFirst` task whose handler finished within the request),
   * taking its place among the tenant's `jobs.maxQueuedPerTenant` first, as `start` does.
   */
  async open(tenant: string, tool: string, estimatedSeconds?: number): Promise<McpJobRecord> {
    const jobId = newJobId();
    await this.slots.take(tenant, jobId);
    return this.jobs.create(tenant, tool, estimatedSeconds, jobId).catch(async (error: unknown) => {
      await this.slots.release(tenant, jobId).catch(() => undefined);
      throw error;
    });
  }

  find(tenant: string, jobId: string): Promise<McpJobRecord | undefined> {
    return this.jobs.get(tenant, jobId);
  }

  list(tenant: string): Promise<McpJobRecord[]> {
    return this.jobs.list(tenant);
  }

  /**
   * The one cancellation of a job or task, whatever surface asks: marks it cancelled (for good), takes it out of the
   * line or aborts it here, else tells the instance running it (the worker's bus signal).
   */
  async cancel(tenant: string, jobId: string): Promise<McpJobRecord | undefined> {
    const record = await this.jobs.get(tenant, jobId);
    if (!record || isFinal(record.status)) return record;
    const result = errorResult(errorBody('CANCELLED', 'The job was cancelled'));
    const cancelled = await this.jobs.update(tenant, jobId, { status: 'cancelled', result });
    await this.queue.abort(jobId);
    this.worker.signal(jobId, 'abort');
    return cancelled;
  }

  /** The job's HTTP poll route as the client reaches it: the app's global prefix included. */
  pollUrl(jobId: string): string {
    return `${this.globalPrefix?.of(this.options.path) ?? ''}${this.options.path}/jobs/${jobId}`;
  }

  /**
   * What a poll shows: the pending envelope (with progress) while it runs, then the job's final result.
   * `transport`: the asker's (see {@link pendingEnvelope}).
   */
  statusResult(record: McpJobRecord, transport?: McpToolContext['transport']): McpCallToolResult {
    return record.result && isFinal(record.status) ? record.result : envelopeToCallToolResult(this.pendingEnvelope(record, transport));
  }

  /**
   * The pending envelope of a job, for a caller on `transport`. `poll_url` is an HTTP route of this server: over
   * stdio there is none to reach, so it is left out (the job is polled with `get_job_status` or MCP tasks).
   */
  pendingEnvelope(record: McpJobRecord, transport?: McpToolContext['transport']): McpPendingEnvelope {
    const data: McpPendingEnvelope['data'] = { job_id: record.id, ...(transport !== 'stdio' && { poll_url: this.pollUrl(record.id) }) };
    if (record.estimatedSeconds !== undefined) data.estimated_seconds = record.estimatedSeconds;
    if (record.progress !== undefined) data.progress = record.progress;
    if (record.total !== undefined) data.total = record.total;
    if (record.message !== undefined) data.message = record.message;
    return { status: 'pending', data };
  }

  /** The envelope a poll over plain HTTP returns. */
  statusEnvelope(record: McpJobRecord): McpEnvelope | Record<string, unknown> {
    const result = this.statusResult(record);
    return result.structuredContent ?? { content: result.content, isError: result.isError ?? false };
  }
}
