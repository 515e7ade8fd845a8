import { Injectable } from '@nestjs/common';
import type { McpToolDefinition } from '../../../features/tools/mcp-tool-definition.interface.js';
import { McpTasksService } from '../../../features/tasks/mcp-tasks.service.js';
import { McpTaskWorker } from '../../../features/tasks/task-worker.js';
import type { McpRunOutcome } from '../../../features/tasks/task-channel.interface.js';
import { McpCallPipeline, toolArguments } from '../../../execution/mcp-call.pipeline.js';
import { createToolContext } from '../../../execution/tool-context.factory.js';
import { McpToolCallRunner } from '../../../execution/tool-call.runner.js';
import type { McpPrincipal } from '../../../core/mcp-principal.interface.js';
import { JsonRpcErrorCode } from '../../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcId } from '../../../core/json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../../../core/errors/protocol-error.js';
import { clientText } from '../../../core/client-text.js';
import type { McpCallToolResult } from '../../../core/results/content.types.js';
import type { McpJobRecord } from '../../../jobs/job.record.js';
import { McpJobService } from '../../../jobs/mcp-job.service.js';
import { type McpRev20260728Envelope } from '../envelope.js';
import { isPlainObject } from '../../../core/plain-object.js';
import { Rev20260728Refusals } from '../refusals.js';
import { TASKS_EXTENSION } from '../../../core/rev-2026-07-28.constants.js';
import { isValidInputResponse } from '../mrtr/input-responses.js';
import { McpInputRound } from '../mrtr/input-round.js';
import { createTaskResult, isCreateTaskResult, taskOf } from './rev-2026-07-28.task-mapper.js';
import { McpTaskSupportRegistry } from './task-support.registry.js';
import { McpTaskStateStore } from './task-state.store.js';
import { McpRev20260728TaskChannels } from './task-channels.js';
import { tenantOf } from '../../../core/tenant.js';

/** How long an `inputFirst` tool may run before its task is created even though it did not report progress. */
const INPUT_FIRST_WINDOW_MS = 1_000;

/** A `tools/call` that may become a task. */
export interface TaskCallInput {
  readonly id: JsonRpcId;
  readonly tool: McpToolDefinition;
  readonly args: Record<string, unknown>;
  readonly envelope: McpRev20260728Envelope;
  readonly principal?: McpPrincipal;
  readonly transport: 'http' | 'stdio' | 'memory';
  /** Answers of earlier `input_required` rounds and of this request. */
  readonly known: Record<string, unknown>;
  readonly responses: Record<string, unknown>;
}

/** What such a call answered: a task, an `input_required` round, or a plain result (invalid arguments, limits). */
export type TaskCallOutcome =
  | { readonly kind: 'task'; readonly result: Record<string, unknown> }
  | { readonly kind: 'input'; readonly round: McpInputRound }
  | { readonly kind: 'complete'; readonly result: McpCallToolResult };

/** An `inputFirst` run that ended waiting for the client: no result, so the idempotency key is not kept. */
class PendingRound extends Error {
  constructor(readonly round: McpInputRound) {
    super('input required');
  }
}

/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663), over the job engine: a job tool
 * called by a request that declares the extension runs as a task (`CreateTaskResult`), read with `tasks/get`, fed
 * with `tasks/update`, stopped with `tasks/cancel`. A task call passes the same pipeline as any `tools/call` and
 * runs on the job queue, so with `redis` any instance's worker may run it ({@link McpRev20260728TaskChannels}).
 */
@Injectable()
export class McpRev20260728TasksExtension {
  constructor(
    private readonly tasks: McpTasksService,
    private readonly support: McpTaskSupportRegistry,
    private readonly pipeline: McpCallPipeline,
    private readonly runner: McpToolCallRunner,
    private readonly jobs: McpJobService,
    private readonly states: McpTaskStateStore,
    private readonly worker: McpTaskWorker,
    private readonly channels: McpRev20260728TaskChannels,
  ) {}

  /** Whether the server has task-capable tools (and so serves tasks and advertises the extension). */
  get enabled(): boolean {
    return this.tasks.enabled;
  }

  /**
   * Whether this 2026-07-28 `tools/call` runs as a task: a job tool, called by a request that declares the
   * extension. A task-only tool called without it is refused with -32021 naming the extension.
   */
  runsAsTask(tool: McpToolDefinition, envelope: McpRev20260728Envelope): boolean {
    if (!tool.job) return false;
    if (declaresTasks(envelope)) return true;
    if (this.support.of(tool).required) assertTasksDeclared(envelope);
    return false;
  }

  /**
   * Runs a task-capable call through the call pipeline. The task is created at once (durably: a `tasks/get` right
   * after the answer finds it) and queued; an `inputFirst` tool runs here first ({@link runFirst}).
   */
  async call(input: TaskCallInput): Promise<TaskCallOutcome> {
    const { tool, envelope } = input;
    const forbidden = this.pipeline.admit(tool, input);
    if (forbidden) return { kind: 'complete', result: forbidden };
    const controller = new AbortController();
    const context = createToolContext({
      requestId: input.id,
      toolName: tool.name,
      progressToken: undefined,
      request: {
        transport: input.transport,
        protocolVersion: envelope.protocolVersion,
        principal: input.principal,
        clientCapabilities: envelope.clientCapabilities,
      },
      signal: controller.signal,
    }).context;
    const inputFirst = this.support.of(tool).inputFirst === true;
    try {
      const result = await this.pipeline.run({
        tool,
        args: input.args,
        context,
        controller,
        task: { requestId: input.id, clientCapabilities: envelope.clientCapabilities },
        accepted: (record) => createTaskResult(record) as unknown as McpCallToolResult,
        ...(inputFirst && { execute: (args: object) => this.runFirst(input, args, controller) }),
      });
      return isCreateTaskResult(result)
        ? { kind: 'task', result: result as unknown as Record<string, unknown> }
        : { kind: 'complete', result };
    } catch (error) {
      if (error instanceof PendingRound) return { kind: 'input', round: error.round };
      throw error;
    }
  }

  /** `tasks/get`: the task with what its status calls for (input requests, the result, or the error). */
  async get(taskId: unknown, principal: McpPrincipal | undefined): Promise<Record<string, unknown>> {
    const record = await this.task(taskId, principal);
    const state = await this.states.get(record.tenant, record.id);
    const task = taskOf(record, state);
    if (task.status === 'input_required') return { ...task, inputRequests: state.inputRequests };
    if (task.status === 'completed' && record.result) return { ...task, result: record.result };
    if (task.status === 'failed')
      return { ...task, error: state.failure ?? { code: JsonRpcErrorCode.INTERNAL_ERROR, message: 'Internal error' } };
    return task;
  }

  /**
   * `tasks/update`: hands answers to the task. Keys it is not waiting for are ignored; answered keys leave
   * `inputRequests` before the acknowledgement, so a `tasks/get` right after it no longer lists them.
   */
  async update(taskId: unknown, inputResponses: unknown, principal: McpPrincipal | undefined): Promise<Record<string, unknown>> {
    const record = await this.task(taskId, principal);
    if (!isPlainObject(inputResponses))
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: inputResponses must be an object');
    const state = await this.states.get(record.tenant, record.id);
    for (const [key, answer] of Object.entries(inputResponses)) {
      const request = state.inputRequests[key];
      if (request && !isValidInputResponse(request.method, answer)) {
        throw new McpProtocolError(
          JsonRpcErrorCode.INVALID_PARAMS,
          `Invalid params: inputResponses.${key} is not a valid ${request.method} result`,
        );
      }
    }
    const accepted = await this.states.update(record.tenant, record.id, record.ttlMs, (next) => {
      let count = 0;
      for (const [key, answer] of Object.entries(inputResponses)) {
        if (!next.inputRequests[key]) continue;
        delete next.inputRequests[key];
        next.answers[key] = answer;
        count++;
      }
      return count;
    });
    if (accepted > 0) this.worker.signal(record.id, 'wake');
    return {};
  }

  /** `tasks/cancel`: cooperative; acknowledged also for a task that already ended. */
  async cancel(taskId: unknown, principal: McpPrincipal | undefined): Promise<Record<string, unknown>> {
    const record = await this.task(taskId, principal);
    await this.jobs.cancel(record.tenant, record.id);
    return {};
  }

  /**
   * An `inputFirst` task: the handler runs here to ask its questions; one earlier rounds cannot answer ends the
   * request with an `input_required` round ({@link PendingRound}). Its first progress report, or a second without a
   * new question, ends the questions: this run is aborted and the task queued with the answers it used (a worker reruns
   * the handler without asking again). A handler that finished within that second needs no queue.
   */
  private async runFirst(input: TaskCallInput, args: object, controller: AbortController): Promise<McpCallToolResult> {
    const { tool, envelope } = input;
    const tenant = tenantOf(input.principal);
    let phaseEnded!: (why: 'input' | 'work') => void;
    const phase = new Promise<'input' | 'work'>((resolve) => (phaseEnded = resolve));
    const round = new McpInputRound({
      capabilities: envelope.clientCapabilities,
      known: input.known,
      responses: input.responses,
      onInputRequired: () => {
        controller.abort(new Error('Input required'));
        phaseEnded('input');
      },
    });
    let queued = false;
    const queue = () => {
      if (queued || round.interruptedRun) return;
      queued = true;
      controller.abort(new Error('The task runs on the job queue'));
      phaseEnded('work');
    };
    const context = this.worker.jobContext({
      requestId: input.id,
      tool,
      tenant,
      transport: input.transport,
      protocolVersion: envelope.protocolVersion,
      principal: input.principal,
      clientCapabilities: envelope.clientCapabilities,
      askClient: round.ask,
      signal: controller.signal,
      record: () => undefined,
      onUntracked: queue,
    });
    const finished = this.runner.invoke(tool, args, context, controller).then(
      (result): McpRunOutcome => ({ result }),
      (error: unknown): McpRunOutcome => ({ error }),
    );
    const timer = setTimeout(queue, INPUT_FIRST_WINDOW_MS);
    const first = await Promise.race([phase, finished.then(() => 'finished' as const)]);
    clearTimeout(timer);
    if (first === 'input' || round.interruptedRun) throw new PendingRound(round);
    if (first === 'finished' && !queued) {
      const outcome = await finished;
      // A capability the request lacks, before any task exists, is the request's error (-32021).
      if (round.missing && 'error' in outcome) throw Rev20260728Refusals.missingCapability(round.missing);
      // A refusal (the tenant's job slots or quotas) propagates: the pipeline answers it as an envelope.
      const job = await this.jobs.open(tenant, tool.name, tool.job?.estimatedSeconds);
      await this.channels.settle(job, tool, outcome);
      return createTaskResult((await this.jobs.find(tenant, job.id)) ?? job) as unknown as McpCallToolResult;
    }
    const spec = { requestId: input.id, clientCapabilities: envelope.clientCapabilities, answers: round.used };
    const job = await this.jobs.start(tool.name, toolArguments(tool, input.args), context, tool.job?.estimatedSeconds, spec);
    return createTaskResult(job) as unknown as McpCallToolResult;
  }

  /** The caller's task; another tenant's, an expired or an unknown id all read as unknown (-32602). */
  private async task(taskId: unknown, principal: McpPrincipal | undefined): Promise<McpJobRecord> {
    if (typeof taskId !== 'string' || taskId === '')
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: taskId must be a string');
    const record = await this.jobs.find(tenantOf(principal), taskId);
    if (!record) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown or expired task: ${clientText(taskId)}`);
    return record;
  }
}

/** Refuses (-32021 naming the extension) a request that did not declare the tasks extension: `tasks/*`, `taskIds`. */
export function assertTasksDeclared(envelope: McpRev20260728Envelope): void {
  if (!declaresTasks(envelope)) throw Rev20260728Refusals.missingCapability({ extensions: { [TASKS_EXTENSION]: {} } });
}

function declaresTasks(envelope: McpRev20260728Envelope): boolean {
  const extensions = envelope.clientCapabilities.extensions;
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}
