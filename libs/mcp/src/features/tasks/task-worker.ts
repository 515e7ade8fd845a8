import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpToolContext } from '../tools/mcp-tool-context.interface.js';
import { McpToolCallRunner } from '../../execution/tool-call.runner.js';
import { createToolContext } from '../../execution/tool-context.factory.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { McpCallToolResult } from '../../core/results/content.types.js';
import { envelopeToCallToolResult } from '../../core/results/mcp-result.js';
import { errorBody, McpToolError } from '../../core/errors/mcp-tool.error.js';
import { isFinal, type McpJobRecord, type McpJobSubmission } from '../../jobs/job.record.js';
import type { McpJobWorker } from '../../jobs/job-worker.interface.js';
import { McpJobStore } from '../../jobs/mcp-job.store.js';
import { McpJobMessages } from '../../jobs/job.messages.js';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import { ModernRefusals } from '../../eras/rev-2026-07-28/refusals.js';
import { ModernMessages } from '../../eras/rev-2026-07-28/rev-2026-07-28.messages.js';
import { McpInputRound, type McpInputRequest } from '../../eras/rev-2026-07-28/mrtr/input-round.js';
import { McpMissingClientCapabilitySignal } from '../../eras/rev-2026-07-28/mrtr/input-required.signal.js';
import { createJobToolContext } from './job-tool-context.js';
import { McpTaskStateStore, type McpTaskState } from './task-state.store.js';

/** How often a task waiting for input looks for answers delivered to another instance. */
const ANSWER_POLL_MS = 250;
/** The one bus channel of jobs and tasks: a cancellation (`abort`) or answers (`wake`) for the instance running it. */
export const JOB_SIGNAL_CHANNEL = 'jobs:signal';

/** One job or task running on this instance. */
interface RunningJob {
  readonly controller: AbortController;
  readonly done: Promise<void>;
  /** Wakes the handler's waits for answers (tasks of 2026-07-28). */
  readonly wake: () => void;
}

/** How a handler's outcome ended: its result, or what it threw (a crash or a control-flow signal). */
export type McpRunOutcome = { readonly result?: McpCallToolResult; readonly error?: unknown };

/**
 * Runs the jobs and tasks of this instance, whatever queue hands them over (memory or BullMQ) and whatever
 * revision created them: the one running map, the one drain at shutdown and the one bus channel through which
 * a cancellation or an answer reaches the instance running the job. A 2025 job's progress and outcome go to its
 * record; a 2026-07-28 task also asks for input through its task state and ends `failed` on a crash.
 */
@Injectable()
export class McpTaskWorker implements McpJobWorker, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpJobs');
  private readonly running = new Map<string, RunningJob>();
  private stopListening?: () => Promise<void>;

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly runner: McpToolCallRunner,
    private readonly jobs: McpJobStore,
    private readonly states: McpTaskStateStore,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
  ) {}

  /** Listens for cancellations and answers meant for jobs running here (only a server with job tools has any). */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.registry.hasJobs || !this.bus) return;
    this.stopListening = await this.bus.subscribe(JOB_SIGNAL_CHANNEL, (message) => {
      const { jobId, signal } = (message ?? {}) as { jobId?: unknown; signal?: unknown };
      if (typeof jobId === 'string') this.apply(jobId, signal === 'abort' ? 'abort' : 'wake');
    });
  }

  /** Lets running jobs and tasks finish before the process exits (graceful shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((job) => job.done));
    await this.stopListening?.().catch(() => undefined);
  }

  /**
   * Runs a queued job unless it is already over. Resolves once its outcome is recorded (or logged as
   * unrecordable); rejects only when the job could not be read before it started, never for the tool's failure.
   */
  execute(submission: McpJobSubmission): Promise<void> {
    const controller = new AbortController();
    const waiters = new Set<() => void>();
    return this.track(submission.jobId, controller, waiters, this.run(submission, controller, waiters));
  }

  /** Aborts the job if it runs here; true when it did. */
  abort(jobId: string): boolean {
    return this.apply(jobId, 'abort');
  }

  /** Cancels or wakes the job where it runs: here, or on the instance that hears it on the bus. */
  signal(jobId: string, signal: 'abort' | 'wake'): void {
    if (this.apply(jobId, signal)) return;
    void this.bus?.publish(JOB_SIGNAL_CHANNEL, { jobId, signal }).catch(() => this.logger.warn(McpJobMessages.abortNotBroadcast(jobId)));
  }

  /** Counts a run in the running map until `done` settles (an `inputFirst` task that runs where it was called). */
  track(jobId: string, controller: AbortController, waiters: Set<() => void>, done: Promise<void>): Promise<void> {
    const tracked = done.finally(() => {
      if (this.running.get(jobId)?.done === tracked) this.running.delete(jobId);
    });
    this.running.set(jobId, { controller, done: tracked, wake: () => waiters.forEach((wake) => wake()) });
    return tracked;
  }

  /**
   * The context a task's handler gets: the request's identity and capabilities, questions through `round`, and
   * progress into the job record (`onUntracked` runs for progress reported before the record exists).
   */
  taskContext(input: {
    requestId: JsonRpcId;
    tool: McpToolDefinition;
    tenant: string;
    transport: 'http' | 'stdio';
    protocolVersion: string;
    principal?: McpPrincipal;
    clientCapabilities: Record<string, unknown>;
    round: McpInputRound;
    signal: AbortSignal;
    record: () => McpJobRecord | undefined;
    onUntracked?: () => void;
  }): McpToolContext {
    const request: McpRequestContext = {
      transport: input.transport,
      protocolVersion: input.protocolVersion,
      principal: input.principal,
      clientCapabilities: input.clientCapabilities,
      askClient: input.round.ask,
      send: (message: JsonRpcMessage) => {
        if (!('method' in message) || message.method !== 'notifications/progress') return; // no stream: logs are dropped
        const job = input.record();
        if (!job) return void input.onUntracked?.();
        const { progress, total, message: text } = message.params as { progress?: number; total?: number; message?: string };
        void this.jobs.update(input.tenant, job.id, { progress, total, ...(text !== undefined && { message: text }) }).catch(() => undefined);
      },
    };
    // Progress needs a token to be reported at all; a task has no stream, so any token does.
    return createToolContext({ requestId: input.requestId, toolName: input.tool.name, progressToken: 'task', request, signal: input.signal }).context;
  }

  /** Publishes a question on the task and waits until `tasks/update` answers it (or the task is cancelled). */
  async awaitAnswer(job: McpJobRecord, key: string, request: McpInputRequest, signal: AbortSignal, waiters: Set<() => void>): Promise<Record<string, unknown>> {
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

  /** Records a task's outcome; an unexpected failure (an `INTERNAL_ERROR`) is a failed task with a JSON-RPC error. */
  async settleTask(job: McpJobRecord, tool: McpToolDefinition, outcome: McpRunOutcome): Promise<void> {
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
        await this.jobs.update(job.tenant, job.id, { status: 'error', ...(result && { result }) });
        return;
      }
      await this.states.update(job.tenant, job.id, job.ttlMs, (state) => void (state.inputRequests = {}));
      await this.jobs.update(job.tenant, job.id, { status: result.isError ? 'error' : 'success', result });
    } catch (error) {
      this.logger.error(ModernMessages.taskNotRecorded(job.id), error instanceof Error ? error.stack : String(error));
    }
  }

  private apply(jobId: string, signal: 'abort' | 'wake'): boolean {
    const job = this.running.get(jobId);
    if (signal === 'abort') job?.controller.abort(new Error('Job cancelled'));
    else job?.wake();
    return job !== undefined;
  }

  private async run(submission: McpJobSubmission, controller: AbortController, waiters: Set<() => void>): Promise<void> {
    const { tenant, jobId } = submission;
    // Cancelled while it waited in the queue, or finished by a worker that died before telling the queue: done.
    const record = await this.jobs.get(tenant, jobId);
    if (!record || isFinal(record.status)) return;
    const tool = this.registry.get(submission.tool);
    if (!tool) {
      const result = envelopeToCallToolResult({ status: 'error', error: errorBody('INTERNAL_ERROR', "The job's tool no longer exists") });
      await this.jobs.update(tenant, jobId, { status: 'error', result });
      return;
    }
    if (submission.task) return this.runTask(submission, record, tool, controller, waiters);
    const context = createJobToolContext(submission, controller.signal, (progress, total, message) => {
      void this.jobs.update(tenant, jobId, { progress, total, message }).catch(() => undefined);
    });
    try {
      const result = await this.runner.run(tool, submission.args, context, controller);
      await this.jobs.update(tenant, jobId, { status: result.isError ? 'error' : 'success', result });
    } catch (error) {
      this.logger.error(`Job ${jobId} (${submission.tool}) could not be recorded`, error instanceof Error ? error.stack : String(error));
    }
  }

  /** A queued task of 2026-07-28: its questions wait for `tasks/update` from the start. */
  private async runTask(submission: McpJobSubmission, record: McpJobRecord, tool: McpToolDefinition, controller: AbortController, waiters: Set<() => void>): Promise<void> {
    const task = submission.task!;
    const round = new McpInputRound({ capabilities: task.clientCapabilities });
    round.delegate = (key, request) => this.awaitAnswer(record, key, request, controller.signal, waiters);
    const context = this.taskContext({
      requestId: task.requestId,
      tool,
      tenant: submission.tenant,
      transport: task.transport,
      protocolVersion: submission.protocolVersion,
      principal: submission.principal,
      clientCapabilities: task.clientCapabilities,
      round,
      signal: controller.signal,
      record: () => record,
    });
    const outcome = await this.runner.run(tool, submission.args, context, controller).then(
      (result): McpRunOutcome => ({ result }),
      (error: unknown): McpRunOutcome => ({ error }),
    );
    await this.settleTask(record, tool, outcome);
  }
}
