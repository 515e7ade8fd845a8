import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { McpJobService } from '../../jobs/mcp-job.service.js';
import { jobTools } from './job-tools.js';

/**
 * Whether this server serves tasks at all: every surface (job tools, 2025-11-25 `tasks/*`, the 2026-07-28 tasks
 * extension) maps the job engine's records, bound to the caller's tenant, to its own wire. At bootstrap, once the
 * registries are filled, a server with job tools gets `get_job_status` and `cancel_job` and declares `tasks`.
 */
@Injectable()
export class McpTasksService implements OnApplicationBootstrap {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly jobs: McpJobService,
    private readonly capabilities: McpCapabilities,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.registry.hasJobs) return;
    for (const tool of jobTools(this.jobs, new DtoSchemaFactory(), this.options.tools.timeoutMs)) this.registry.addOwn(tool);
    this.capabilities.declare('tasks', { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  }

  /** Whether the server has task-capable tools (and so serves tasks and advertises the extension). */
  get enabled(): boolean {
    return this.registry.hasJobs;
  }
}
