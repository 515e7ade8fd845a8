import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { isFinal, type McpJobRecord } from '../../../jobs/job.record.js';
import { taskOf } from './rev-2025-11-25.task-mapper.js';
import { McpTasksService } from '../../../features/tasks/mcp-tasks.service.js';
import { ToolsHandlers } from '../../../features/tools/tools.handlers.js';
import type { McpToolCallHook } from '../../../features/tools/tool-call-hook.interface.js';
import type { McpToolDefinition } from '../../../features/tools/mcp-tool-definition.interface.js';
import { McpJobService } from '../../../jobs/mcp-job.service.js';
import { JsonRpcErrorCode } from '../../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../../core/errors/protocol-error.js';
import { clientText } from '../../../core/client-text.js';
import type { McpCall, McpMethodHandler, McpMethodHandlerGroup } from '../../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../../core/method-handler.decorator.js';
import { tenantOf } from '../../../core/tenant.js';
import { isPlainObject } from '../../../core/plain-object.js';
import { revisionHas } from '../../../core/protocol-revisions.js';
import type { McpCallToolResult } from '../../../core/results/content.types.js';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** How the pipeline answers a task-augmented call: the accepted job as a `CreateTaskResult`, no idempotency key. */
const AS_TASK = { accepted: (record: McpJobRecord) => ({ task: taskOf(record) }) as unknown as McpCallToolResult, idempotent: false };

/**
 * MCP tasks (spec 2025-11-25) over the job store, bound to the caller's tenant (another's task id is unknown, -32602):
 * `tasks/get|result|list|cancel`, and the era's `tools/call` with this group as its hook (made once, at boot).
 */
@McpMethodHandlerProvider()
@Injectable()
export class McpRev20251125TaskHandlers implements McpMethodHandlerGroup, McpToolCallHook {
  /** `tasks/*` served once a job tool exists (asked at bootstrap, when every tool is registered). */
  readonly handlers: readonly McpMethodHandler[] = [
    { method: 'tools/call', handle: (call: McpCall) => this.tools.call(call, this) },
    ...(['get', 'result', 'list', 'cancel'] as const).map((name) => ({
      method: `tasks/${name}`,
      isServed: () => this.tasks.enabled,
      handle: (call: McpCall) => this[name](call),
    })),
  ];

  constructor(
    private readonly tasks: McpTasksService,
    private readonly jobs: McpJobService,
    private readonly tools: ToolsHandlers,
  ) {}

  /**
   * A `task` param asks for a task-augmented call: honoured for job tools in sessions that negotiated tasks; a tool
   * without task support answers -32601 (past the scope check); older sessions ignore the param.
   */
  accepting(tool: McpToolDefinition, call: McpCall): typeof AS_TASK | undefined {
    if (!isPlainObject(call.params.task) || !revisionHas(call.context.protocolVersion, 'tasks') || !this.tasks.enabled) return undefined;
    if (!tool.job) throw new McpProtocolError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Tool ${tool.name} does not support task-augmented calls`);
    return AS_TASK;
  }

  async get(call: McpCall): Promise<Record<string, unknown>> {
    return taskOf(await this.task(call));
  }

  async list(call: McpCall): Promise<Record<string, unknown>> {
    return { tasks: (await this.jobs.list(tenantOf(call.context.principal))).map(taskOf) };
  }

  /** Blocks until the task is final, then answers exactly what `tools/call` would have (spec MUST). */
  async result(call: McpCall): Promise<Record<string, unknown>> {
    let record = await this.task(call);
    while (!isFinal(record.status)) {
      await sleep(100, undefined, { signal: call.signal }).catch(() => undefined);
      if (call.signal.aborted) throw new McpProtocolError(JsonRpcErrorCode.INTERNAL_ERROR, 'Cancelled');
      record = await this.task(call);
    }
    const result = this.jobs.statusResult(record);
    return { ...result, _meta: { ...(result._meta ?? {}), [RELATED_TASK]: { taskId: record.id } } };
  }

  async cancel(call: McpCall): Promise<Record<string, unknown>> {
    const record = await this.task(call);
    if (isFinal(record.status))
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Task ${record.id} is already ${taskOf(record).status}`);
    return taskOf((await this.jobs.cancel(record.tenant, record.id)) ?? record);
  }

  private async task(call: McpCall): Promise<McpJobRecord> {
    const taskId = call.params.taskId;
    if (typeof taskId !== 'string') throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: taskId must be a string');
    const record = await this.jobs.find(tenantOf(call.context.principal), taskId);
    if (!record) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown or expired task: ${clientText(taskId)}`);
    return record;
  }
}
