import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpJobRecord } from '../../jobs/job.record.js';
import { McpRawResult } from '../../core/results/mcp-result.js';
import type { McpCallToolResult } from '../../core/results/content.types.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import type { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import { JobIdDto } from './dto/job-id.dto.js';
import { McpDtoArgumentValidator } from '../../execution/validation/dto-argument.validator.js';

/** What the built-in job tools need from the job engine (`McpJobService`). */
export interface McpJobToolsSource {
  find(tenant: string, jobId: string): Promise<McpJobRecord | undefined>;
  cancel(tenant: string, jobId: string): Promise<McpJobRecord | undefined>;
  statusResult(record: McpJobRecord, transport?: McpToolContext['transport']): McpCallToolResult;
}

/** The built-in tools that poll and cancel jobs (`get_job_status`, `cancel_job`), added when a tool runs as a job. */
export function jobTools(source: McpJobToolsSource, schemas: DtoSchemaFactory, timeoutMs: number): McpToolDefinition[] {
  const tool = (
    name: string,
    description: string,
    handler: (args: JobIdDto, context: McpToolContext) => Promise<unknown>,
  ): McpToolDefinition => ({
    name,
    site: `McpModule#${name}`,
    descriptor: {
      name,
      description,
      inputSchema: schemas.forClass(JobIdDto),
      annotations: { readOnlyHint: name === 'get_job_status', openWorldHint: false },
    },
    validator: new McpDtoArgumentValidator(JobIdDto),
    timeoutMs,
    scopes: [],
    handler: (args, context) => handler(args as JobIdDto, context),
  });
  /** Another tenant's job reads as missing, never as forbidden (no existence leak). */
  const found = async (tenant: string, jobId: string) => {
    const record = await source.find(tenant, jobId);
    if (!record) throw new McpToolError('JOB_NOT_FOUND', `No job "${jobId}" for this caller`);
    return record;
  };
  return [
    tool(
      'get_job_status',
      'Status of a job started by a long-running tool: pending (with progress) until it ends, then its result.',
      async (args, context) => new McpRawResult(source.statusResult(await found(context.tenant, args.job_id), context.transport)),
    ),
    tool('cancel_job', 'Cancels a pending job; a finished job is left as it is.', async (args, context) => {
      const record = (await source.cancel(context.tenant, args.job_id)) ?? (await found(context.tenant, args.job_id));
      return new McpRawResult(source.statusResult(record, context.transport));
    }),
  ];
}
