import { Injectable, type OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_TENANT } from '../../execution/tool-context.factory.js';
import { isFinal, type McpJobRecord } from '../../jobs/job.record.js';
import { taskOf } from './job-task.mapper.js';
import { McpJobService } from '../../jobs/mcp-job.service.js';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText } from '../../core/client-text.js';
import type { McpCall } from '../../core/method-handler.interface.js';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/**
 * MCP tasks (spec 2025-11-25) over the job store: `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`.
 * Tasks are bound to the caller's tenant; another tenant's task id is unknown (-32602).
 */
@Injectable()
export class McpTaskHandlers implements OnModuleInit {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly jobs: McpJobService,
    private readonly registry: McpToolRegistry,
  ) {}

  onModuleInit(): void {
    if (!this.registry.hasJobs) return;
    this.dispatcher.register({ method: 'tasks/get', handle: async (call) => taskOf(await this.task(call)) });
    this.dispatcher.register({ method: 'tasks/result', handle: (call) => this.result(call) });
    this.dispatcher.register({ method: 'tasks/list', handle: async (call) => ({ tasks: (await this.jobs.list(tenantOf(call))).map(taskOf) }) });
    this.dispatcher.register({ method: 'tasks/cancel', handle: (call) => this.cancel(call) });
  }

  /** Blocks until the task is final, then answers exactly what `tools/call` would have (spec MUST). */
  private async result(call: McpCall): Promise<Record<string, unknown>> {
    let record = await this.task(call);
    while (!isFinal(record.status)) {
      await sleep(100, undefined, { signal: call.signal }).catch(() => undefined);
      if (call.signal.aborted) throw new McpProtocolError(JsonRpcErrorCode.INTERNAL_ERROR, 'Cancelled');
      record = await this.task(call);
    }
    const result = this.jobs.statusResult(record);
    return { ...result, _meta: { ...(result._meta ?? {}), [RELATED_TASK]: { taskId: record.id } } };
  }

  private async cancel(call: McpCall): Promise<Record<string, unknown>> {
    const record = await this.task(call);
    if (isFinal(record.status)) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Task ${record.id} is already ${taskOf(record).status}`);
    return taskOf((await this.jobs.cancel(record.tenant, record.id)) ?? record);
  }

  private async task(call: McpCall): Promise<McpJobRecord> {
    const taskId = call.params.taskId;
    if (typeof taskId !== 'string') throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: taskId must be a string');
    const record = await this.jobs.find(tenantOf(call), taskId);
    if (!record) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown or expired task: ${clientText(taskId)}`);
    return record;
  }
}

function tenantOf(call: McpCall): string {
  return call.context.principal?.tenant ?? DEFAULT_TENANT;
}
