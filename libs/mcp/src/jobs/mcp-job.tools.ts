import { Injectable } from '@nestjs/common';
import { McpToolRegistry } from '../features/tools/mcp-tool.registry.js';
import type { McpToolContext } from '../features/tools/mcp-tool-context.interface.js';
import type { McpToolDefinition } from '../features/tools/mcp-tool-definition.interface.js';
import { McpRawResult } from '../core/results/mcp-result.js';
import { McpToolError } from '../core/errors/mcp-tool.error.js';
import type { DtoSchemaFactory } from '../features/tools/schema/dto-schema.factory.js';
import { JobIdDto } from './dto/job-id.dto.js';
import { McpJobService } from './mcp-job.service.js';

/** The built-in tools that poll and cancel jobs, registered when at least one tool runs as a job. */
@Injectable()
export class McpJobTools {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly jobs: McpJobService,
  ) {}

  register(schemas: DtoSchemaFactory, timeoutMs: number): void {
    const tool = (name: string, description: string, handler: (args: JobIdDto, context: McpToolContext) => Promise<unknown>): McpToolDefinition => ({
      name,
      site: `McpModule#${name}`,
      descriptor: { name, description, inputSchema: schemas.forClass(JobIdDto), annotations: { readOnlyHint: name === 'get_job_status', openWorldHint: false } },
      argsType: JobIdDto,
      timeoutMs,
      scopes: [],
      handler: (args, context) => handler(args as JobIdDto, context),
    });
    this.registry.add(
      tool('get_job_status', 'Status of a job started by a long-running tool: pending (with progress) until it ends, then its result.', async (args, context) => {
        return new McpRawResult(this.jobs.statusResult(await this.found(context.tenant, args.job_id)));
      }),
    );
    this.registry.add(
      tool('cancel_job', 'Cancels a pending job; a finished job is left as it is.', async (args, context) => {
        const record = (await this.jobs.cancel(context.tenant, args.job_id)) ?? (await this.found(context.tenant, args.job_id));
        return new McpRawResult(this.jobs.statusResult(record));
      }),
    );
  }

  /** Another tenant's job reads as missing, never as forbidden (no existence leak). */
  private async found(tenant: string, jobId: string) {
    const record = await this.jobs.find(tenant, jobId);
    if (!record) throw new McpToolError('JOB_NOT_FOUND', `No job "${jobId}" for this caller`);
    return record;
  }
}
