import { Injectable } from '@nestjs/common';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';

/**
 * Whether this server serves tasks at all: every surface (job tools, 2025-11-25 `tasks/*`, the 2026-07-28 tasks
 * extension) maps the job engine's records, bound to the caller's tenant, to its own wire. The job tools and the
 * `tasks` capability come with the components (`McpJobToolsProvider`).
 */
@Injectable()
export class McpTasksService {
  constructor(private readonly registry: McpToolRegistry) {}

  /** Whether the server has task-capable tools (and so serves tasks and advertises the extension). */
  get enabled(): boolean {
    return this.registry.hasJobs;
  }
}
