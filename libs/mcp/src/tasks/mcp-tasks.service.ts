import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpToolRegistry } from '../features/tools/mcp-tool.registry.js';
import { DtoSchemaFactory } from '../features/tools/schema/dto-schema.factory.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { McpCapabilities } from '../core/mcp-capabilities.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import { isFinal, type McpJobRecord } from './engine/job.record.js';
import { McpJobService } from './engine/mcp-job.service.js';
import { jobTools } from './job-tools.js';
import { McpTaskWorker } from './task-worker.js';

/**
 * The one tasks service, over the job engine (`McpJobService`, its queue and `McpTaskWorker`), for every
 * revision: the 2025-11-25 `tasks/*` methods and the job tools read it, and so does each revision's tasks
 * surface (2026-07-28: `tasks/rev-2026-07-28/`), each through its own mapper. Tasks are job records bound
 * to the caller's tenant, so every revision sees every task, and a cancellation reaches it wherever it runs.
 *
 * At bootstrap, once every explorer has filled the registries, a server with job tools gets the job tools
 * (`get_job_status`, `cancel_job`) and declares the `tasks` capability.
 */
@Injectable()
export class McpTasksService implements OnApplicationBootstrap {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly jobs: McpJobService,
    private readonly worker: McpTaskWorker,
    private readonly capabilities: McpCapabilities,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.registry.hasJobs) return;
    for (const tool of jobTools(this, new DtoSchemaFactory(), this.options.toolTimeoutMs)) this.registry.add(tool);
    this.capabilities.declare('tasks', { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  }

  /** Whether the server has task-capable tools (and so serves tasks and advertises the extension). */
  get enabled(): boolean {
    return this.registry.hasJobs;
  }

  find(tenant: string, jobId: string): Promise<McpJobRecord | undefined> {
    return this.jobs.find(tenant, jobId);
  }

  list(tenant: string): Promise<McpJobRecord[]> {
    return this.jobs.list(tenant);
  }

  /** What a poll shows: the pending envelope while it runs, then the job's final result. */
  statusResult(record: McpJobRecord): McpCallToolResult {
    return this.jobs.statusResult(record);
  }

  /** Cancels a job or task of any revision: marked cancelled, and aborted wherever it runs. */
  async cancelJob(tenant: string, jobId: string): Promise<McpJobRecord | undefined> {
    const before = await this.jobs.find(tenant, jobId);
    if (!before || isFinal(before.status)) return before;
    const record = await this.jobs.cancel(tenant, jobId);
    this.worker.signal(jobId, 'abort');
    return record;
  }
}
