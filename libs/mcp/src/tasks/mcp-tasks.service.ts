import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpToolRegistry } from '../features/tools/mcp-tool.registry.js';
import { DtoSchemaFactory } from '../features/tools/schema/dto-schema.factory.js';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { McpCapabilities } from '../core/mcp-capabilities.js';
import { McpJobService } from './engine/mcp-job.service.js';
import { jobTools } from './job-tools.js';

/**
 * Whether this server serves tasks at all. Every surface (the job tools, the 2025-11-25 `tasks/*` methods, the
 * 2026-07-28 tasks extension) reads and cancels jobs through the job engine (`McpJobService`) and maps them to its
 * own wire; tasks are job records bound to the caller's tenant, so every revision sees every task.
 *
 * At bootstrap, once every explorer has filled the registries, a server with job tools gets the job tools
 * (`get_job_status`, `cancel_job`) and declares the `tasks` capability.
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
    for (const tool of jobTools(this.jobs, new DtoSchemaFactory(), this.options.tools.timeoutMs)) this.registry.add(tool);
    this.capabilities.declare('tasks', { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  }

  /** Whether the server has task-capable tools (and so serves tasks and advertises the extension). */
  get enabled(): boolean {
    return this.registry.hasJobs;
  }
}
