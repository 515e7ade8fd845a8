import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import { McpToolCallRunner } from '../../execution/tool-call.runner.js';
import { createToolContext, DEFAULT_TENANT } from '../../execution/tool-context.factory.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { isFinal, type McpJobRecord } from '../../jobs/job.record.js';
import { McpJobService } from '../../jobs/mcp-job.service.js';
import { McpJobStore } from '../../jobs/mcp-job.store.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText } from '../../core/client-text.js';
import type { McpCallToolResult } from '../../core/results/content.types.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { envelopeToCallToolResult } from '../../core/results/mcp-result.js';
import { McpQuotaExceededError } from '../../stores/quota-exceeded.error.js';
import { MCP_BUS, type McpMessageBus } from '../../stores/message-bus.js';
import { isPlainObject, type McpModernEnvelope } from '../../eras/rev-2026-07-28/envelope.js';
import { ModernRefusals } from '../../eras/rev-2026-07-28/refusals.js';
import { ModernMessages } from '../../eras/rev-2026-07-28/rev-2026-07-28.messages.js';
import { TASKS_EXTENSION } from '../../eras/rev-2026-07-28/rev-2026-07-28.constants.js';
import { isValidInputResponse } from '../../eras/rev-2026-07-28/mrtr/input-responses.js';
import { McpInputRound, type McpInputRequest } from '../../eras/rev-2026-07-28/mrtr/input-round.js';
import { McpMissingClientCapabilitySignal } from '../../eras/rev-2026-07-28/mrtr/input-required.signal.js';
import { McpTaskSupportRegistry } from './task-support.registry.js';
import { McpTaskStateStore, type McpTaskState } from './task-state.store.js';

/** How long an `inputFirst` tool may run before its task is created even though it did not report progress. */
const INPUT_FIRST_WINDOW_MS = 1_000;
/** How often a task waiting for input looks for answers delivered to another instance. */
const ANSWER_POLL_MS = 250;
const BUS_CHANNEL = 'tasks:input';

/** A `tools/call` that may become a task. */
export interface TaskCallInput {
  readonly id: JsonRpcId;
  readonly tool: McpToolDefinition;
  readonly args: Record<string, unknown>;
  readonly envelope: McpModernEnvelope;
  readonly principal?: McpPrincipal;
  readonly transport: 'http' | 'stdio';
  /** Answers of earlier `input_required` rounds and of this request. */
  readonly known: Record<string, unknown>;
  readonly responses: Record<string, unknown>;
}

/** What such a call answered: a task, an `input_required` round, or a plain result (invalid arguments). */
export type TaskCallOutcome =
  | { readonly kind: 'task'; readonly result: Record<string, unknown> }
  | { readonly kind: 'input'; readonly round: McpInputRound }
  | { readonly kind: 'complete'; readonly result: McpCallToolResult };

/** One task running on this instance. */
interface RunningTask {
  readonly controller: AbortController;
  readonly done: Promise<void>;
  /** Wakes the handler's waits for answers. */
  readonly wake: () => void;
}

/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663) over the job store: a job tool
 * called by a request that declares the extension runs as a task (`CreateTaskResult`), read with `tasks/get`
 * (status, input requests, inlined result or error), fed with `tasks/update`, stopped with `tasks/cancel`.
 * Tasks are job records, so legacy job polling and v1 tasks see them too, bound to the caller's tenant.
 *
 * Task handlers run on the instance that accepted the call; their input requests and answers live in the
 * store, so `tasks/*` may reach any instance.
 */
@Injectable()
export class McpModernTasks implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpModule');
  private readonly running = new Map<string, RunningTask>();

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly support: McpTaskSupportRegistry,
    private readonly runner: McpToolCallRunner,
    private readonly jobStore: McpJobStore,
    private readonly jobs: McpJobService,
    private readonly states: McpTaskStateStore,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    // Answers and cancellations delivered to another instance reach the handler running here.
    await this.bus?.subscribe(BUS_CHANNEL, (message) => {
      const { taskId, cancel } = (message ?? {}) as { taskId?: string; cancel?: boolean };
      const task = typeof taskId === 'string' ? this.running.get(taskId) : undefined;
      if (cancel) task?.controller.abort(new Error('Task cancelled'));
      else task?.wake();
    });
  }

  /** Lets running tasks finish before the process exits, as jobs do. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((task) => task.done));
  }

  /** Whether the server has task-capable tools (and so advertises the extension). */
  get enabled(): boolean {
    return this.registry.hasJobs;
  }

  /**
   * Whether this `tools/call` runs as a task: a job tool, called by a request that declares the extension. A
   * task-only tool called without it is refused with -32021 naming the extension.
   */
  runsAsTask(tool: McpToolDefinition, envelope: McpModernEnvelope): boolean {
    if (!tool.job) return false;
    if (declaresTasks(envelope)) return true;
    if (this.support.of(tool.name).required) throw ModernRefusals.missingCapability({ extensions: { [TASKS_EXTENSION]: {} } });
    return false;
  }

  /** Refuses `tasks/*` from a request that did not declare the extension (before the task id is looked at). */
  assertDeclared(envelope: McpModernEnvelope): void {
    if (!declaresTasks(envelope)) throw ModernRefusals.missingCapability({ extensions: { [TASKS_EXTENSION]: {} } });
  }

  /**
   * Runs a task-capable call. By default the task is created at once (durably: a `tasks/get` right after the
   * answer finds it). An `inputFirst` tool runs first: its questions come back as `input_required` rounds, and
   * its task is created when it reports progress, finishes, or has run for a second.
   */
  async call(input: TaskCallInput): Promise<TaskCallOutcome> {
    const { tool } = input;
    const checked = await this.runner.validate(tool, input.args);
    if (!checked.valid) return { kind: 'complete', result: checked.result };
    const tenant = input.principal?.tenant ?? DEFAULT_TENANT;
    const controller = new AbortController();
    let interrupted!: () => void;
    const roundEnded = new Promise<'input'>((resolve) => (interrupted = () => resolve('input')));
    const round = new McpInputRound({
      capabilities: input.envelope.clientCapabilities,
      known: input.known,
      responses: input.responses,
      onInputRequired: () => {
        controller.abort(new Error('Input required'));
        interrupted();
      },
    });

    let record: McpJobRecord | undefined;
    const waiters = new Set<() => void>();
    let created!: (record: McpJobRecord) => void;
    let notCreated!: (error: unknown) => void;
    const taskCreated = new Promise<McpJobRecord>((resolve, reject) => ((created = resolve), (notCreated = reject)));
    taskCreated.catch(() => undefined); // whoever awaits it sees the refusal; nobody else must crash on it
    const createTask = (): Promise<McpJobRecord> => {
      if (!round.delegate) {
        // From now on questions go to the task (tasks/get shows them, tasks/update answers them).
        round.delegate = async (key, request) => this.awaitAnswer(await taskCreated, key, request, controller.signal, waiters);
        void this.jobStore.create(tenant, tool.name, tool.job?.estimatedSeconds).then(
          (job) => {
            record = job;
            created(job);
          },
          (error: unknown) => {
            controller.abort(error);
            notCreated(error);
          },
        );
      }
      return taskCreated;
    };

    const inputFirst = this.support.of(tool.name).inputFirst === true;
    if (!inputFirst) {
      const refused = await quotaRefusalOf(createTask());
      if (refused) return refused;
    }
    const context = this.contextFor(input, round, controller.signal, () => record, createTask);
    const run = this.runner.invoke(tool, checked.args, context, controller);
    const finished = run.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    if (inputFirst) {
      let timer: NodeJS.Timeout | undefined;
      const window = new Promise<'window'>((resolve) => (timer = setTimeout(resolve, INPUT_FIRST_WINDOW_MS, 'window')));
      const first = await Promise.race([roundEnded, taskCreated.then(() => 'task' as const), finished.then(() => 'finished' as const), window]);
      clearTimeout(timer);
      if (first === 'input' || round.interruptedRun) return { kind: 'input', round };
      // A capability the request lacks, before any task exists, is the request's error (-32021).
      if (first === 'finished' && round.missing && 'error' in (await finished)) throw ModernRefusals.missingCapability(round.missing);
    }
    const refused = await quotaRefusalOf(createTask());
    if (refused) return refused;
    const job = await createTask();
    const done = finished.then((outcome) => this.settle(job, tool, outcome));
    this.running.set(job.id, { controller, done, wake: () => waiters.forEach((wake) => wake()) });
    void done.finally(() => this.running.delete(job.id));
    return { kind: 'task', result: createTaskResult(job) };
  }

  /** `tasks/get`: the task with what its status calls for (input requests, the result, or the error). */
  async get(taskId: unknown, principal: McpPrincipal | undefined): Promise<Record<string, unknown>> {
    const record = await this.find(taskId, principal);
    const state = await this.states.get(record.tenant, record.id);
    const task = taskOf(record, state);
    if (task.status === 'input_required') return { ...task, inputRequests: state.inputRequests };
    if (task.status === 'completed' && record.result) return { ...task, result: record.result };
    if (task.status === 'failed') return { ...task, error: state.failure ?? { code: JsonRpcErrorCode.INTERNAL_ERROR, message: 'Internal error' } };
    return task;
  }

  /**
   * `tasks/update`: hands answers to the task. Keys it is not waiting for are ignored; answered keys leave
   * `inputRequests` before the acknowledgement, so a `tasks/get` right after it no longer lists them.
   */
  async update(taskId: unknown, inputResponses: unknown, principal: McpPrincipal | undefined): Promise<Record<string, unknown>> {
    const record = await this.find(taskId, principal);
    if (!isPlainObject(inputResponses)) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: inputResponses must be an object');
    const state = await this.states.get(record.tenant, record.id);
    for (const [key, answer] of Object.entries(inputResponses)) {
      const request = state.inputRequests[key];
      if (request && !isValidInputResponse(request.method, answer)) {
        throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: inputResponses.${key} is not a valid ${request.method} result`);
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
    if (accepted > 0) this.signal(record.id, false);
    return {};
  }

  /** `tasks/cancel`: cooperative; acknowledged also for a task that already ended. */
  async cancel(taskId: unknown, principal: McpPrincipal | undefined): Promise<Record<string, unknown>> {
    const record = await this.find(taskId, principal);
    if (!isFinal(record.status)) {
      await this.jobs.cancel(record.tenant, record.id);
      this.signal(record.id, true);
    }
    return {};
  }

  /** The context a task's handler gets: progress goes to the job record (and may start an inputFirst task). */
  private contextFor(input: TaskCallInput, round: McpInputRound, signal: AbortSignal, record: () => McpJobRecord | undefined, createTask: () => Promise<McpJobRecord>) {
    const tenant = input.principal?.tenant ?? DEFAULT_TENANT;
    const request: McpRequestContext = {
      transport: input.transport,
      protocolVersion: input.envelope.protocolVersion,
      principal: input.principal,
      clientCapabilities: input.envelope.clientCapabilities,
      askClient: round.ask,
      send: (message: JsonRpcMessage) => {
        if (!('method' in message) || message.method !== 'notifications/progress') return; // no stream: logs are dropped
        const job = record();
        if (!job) return void createTask();
        const { progress, total, message: text } = message.params as { progress?: number; total?: number; message?: string };
        void this.jobStore.update(tenant, job.id, { progress, total, ...(text !== undefined && { message: text }) }).catch(() => undefined);
      },
    };
    // Progress needs a token to be reported at all; a task has no stream, so any token does.
    return createToolContext({ requestId: input.id, toolName: input.tool.name, progressToken: 'task', request, signal }).context;
  }

  /** Records the outcome; an unexpected failure (an `INTERNAL_ERROR`) is a failed task with a JSON-RPC error. */
  private async settle(job: McpJobRecord, tool: McpToolDefinition, outcome: { result?: McpCallToolResult; error?: unknown }): Promise<void> {
    try {
      const result = outcome.result;
      const crashed = !result || (result.isError === true && (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code === 'INTERNAL_ERROR');
      if (crashed) {
        const missing = outcome.error instanceof McpMissingClientCapabilitySignal;
        if (!result && !missing) this.logger.error(ModernMessages.taskFailed(job.id, tool.name), outcome.error instanceof Error ? outcome.error.stack : String(outcome.error));
        const failure: JsonRpcErrorObject = missing
          ? ModernRefusals.missingCapability((outcome.error as McpMissingClientCapabilitySignal).requiredCapabilities).toJsonRpcError()
          : { code: JsonRpcErrorCode.INTERNAL_ERROR, message: 'Internal error' };
        await this.states.update(job.tenant, job.id, job.ttlMs, (state) => {
          state.failure = failure;
          state.inputRequests = {};
        });
        await this.jobStore.update(job.tenant, job.id, { status: 'error', ...(result && { result }) });
        return;
      }
      await this.states.update(job.tenant, job.id, job.ttlMs, (state) => void (state.inputRequests = {}));
      await this.jobStore.update(job.tenant, job.id, { status: result.isError ? 'error' : 'success', result });
    } catch (error) {
      this.logger.error(ModernMessages.taskNotRecorded(job.id), error instanceof Error ? error.stack : String(error));
    }
  }

  /** Publishes a question on the task and waits until `tasks/update` answers it (or the task is cancelled). */
  private async awaitAnswer(
    job: McpJobRecord,
    key: string,
    request: McpInputRequest,
    signal: AbortSignal,
    waiters: Set<() => void>,
  ): Promise<Record<string, unknown>> {
    await this.states.update(job.tenant, job.id, job.ttlMs, (state) => void (state.inputRequests[key] = request));
    for (;;) {
      // A tool error, not a crash: the task is cancelled already and its record says so.
      if (signal.aborted) throw new McpToolError('CANCELLED', 'The task was cancelled while it waited for input');
      const answer = await this.states.update(job.tenant, job.id, job.ttlMs, (state: McpTaskState) => {
        const value = state.answers[key];
        if (value !== undefined) delete state.answers[key];
        return value;
      });
      if (answer !== undefined) return answer as Record<string, unknown>;
      await new Promise<void>((resolve) => {
        const stop = () => {
          clearTimeout(timer);
          waiters.delete(stop);
          signal.removeEventListener('abort', stop);
          resolve();
        };
        const timer = setTimeout(stop, ANSWER_POLL_MS);
        waiters.add(stop);
        signal.addEventListener('abort', stop, { once: true });
      });
    }
  }

  private signal(taskId: string, cancel: boolean): void {
    const local = this.running.get(taskId);
    if (cancel) local?.controller.abort(new Error('Task cancelled'));
    else local?.wake();
    if (!local) void this.bus?.publish(BUS_CHANNEL, { taskId, cancel }).catch(() => undefined);
  }

  /** The caller's task; another tenant's, an expired or an unknown id all read as unknown (-32602). */
  private async find(taskId: unknown, principal: McpPrincipal | undefined): Promise<McpJobRecord> {
    if (typeof taskId !== 'string' || taskId === '') throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: taskId must be a string');
    const record = await this.jobs.find(principal?.tenant ?? DEFAULT_TENANT, taskId);
    if (!record) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown or expired task: ${clientText(taskId)}`);
    return record;
  }
}

function declaresTasks(envelope: McpModernEnvelope): boolean {
  const extensions = envelope.clientCapabilities.extensions;
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}

/** The `Task` fields of a job (SEP-2663 names: `ttlMs`, `pollIntervalMs`, integers). */
function taskOf(record: McpJobRecord, state: McpTaskState): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.id,
    status: statusOf(record, state),
    createdAt: record.createdAt,
    lastUpdatedAt: record.updatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: Math.round(Math.min(5_000, Math.max(250, (record.estimatedSeconds ?? 1) * 250))),
  };
  if (record.message) task.statusMessage = record.message;
  return task;
}

function statusOf(record: McpJobRecord, state: McpTaskState): string {
  switch (record.status) {
    case 'pending':
      return Object.keys(state.inputRequests).length > 0 ? 'input_required' : 'working';
    case 'cancelled':
      return 'cancelled';
    case 'error':
      // A tool error is a completed task whose result says isError; a crash is a failed task.
      return state.failure ? 'failed' : 'completed';
    case 'success':
      return 'completed';
  }
}

/** The flat `CreateTaskResult` (no nested `task`, no `requestState`). */
function createTaskResult(record: McpJobRecord): Record<string, unknown> {
  return { resultType: 'task', ...taskOf(record, { inputRequests: {}, answers: {} }) };
}

/** A task the tenant's quota refused to record: the call completes with the retryable envelope, like any other. */
async function quotaRefusalOf(creation: Promise<McpJobRecord>): Promise<TaskCallOutcome | undefined> {
  try {
    await creation;
    return undefined;
  } catch (error) {
    if (error instanceof McpQuotaExceededError) return { kind: 'complete', result: envelopeToCallToolResult({ status: 'error', error: error.toErrorBody() }) };
    throw error;
  }
}
