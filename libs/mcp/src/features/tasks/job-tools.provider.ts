import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { McpJobService } from '../../jobs/mcp-job.service.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { jobTools } from './job-tools.js';

/**
 * The job tools' source: when a tool before it in the provider list runs as a job (only `@McpTool()` methods may),
 * `get_job_status` and `cancel_job`, marked the library's own (reserved names, left as they are by `tools.transforms`:
 * job results, the explorer and the docs name them), and the `tasks` capability declared.
 */
@Injectable()
export class McpJobToolsProvider implements McpComponentProvider {
  private serves = false;

  constructor(
    private readonly jobs: McpJobService,
    private readonly capabilities: McpCapabilities,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'tools'>,
  ) {}

  *components(earlier: readonly McpToolDefinition[]): Iterable<McpComponent> {
    this.serves = earlier.some((tool) => tool.job);
    if (!this.serves) return;
    for (const definition of jobTools(this.jobs, new DtoSchemaFactory(), this.options.tools.timeoutMs))
      yield { kind: 'tool', definition, own: true };
  }

  loaded(): void {
    if (this.serves) this.capabilities.declare('tasks', { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  }
}
