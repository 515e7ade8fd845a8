import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import { McpToolCallRunner } from '../../execution/tool-call.runner.js';
import { createToolContext } from '../../execution/tool-context.factory.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { JsonRpcId, JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { errorResult } from '../../core/results/mcp-result.js';
import { errorBody, McpToolError } from '../../core/errors/mcp-tool.error.js';
import { isFinal, type McpJobRecord, type McpJobSubmission } from '../../jobs/job.record.js';
import type { McpJobRunEnd, McpJobWorker } from '../../jobs/job-worker.interface.js';
import { McpJobStore } from '../../jobs/mcp-job.store.js';
import { McpJobMessages } from '../../jobs/job.messages.js';
import { recordOutcome } from '../../jobs/outcome-retry.js';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { MCP_TASK_CHANNELS, type McpRunOutcome, type McpTaskChannels } from './task-channel.interface.js';
import { McpTaskWakeups } from './task-wakeups.js';

/** The one bus channel of jobs and tasks: a cancellation (`abort`) or answers (`wake`) for the instance running it. */
export const JOB_SIGNAL_CHANNEL = 'jobs:signal';

/** The abort reason of a run that shutdown stops after `shutdown.graceMs`: its outcome is not recorded. */
export class McpShutdownInterruption extends Error {
  constructor() {
    super('The instance is shutting down');
  }
}

/** What a run came to: its outcome (recorded by the caller) or shutdown's interruption. */
type Interruptible<T> = { readonly interrupted: true } | { readonly interrupted: false; readonly value: T };

/** One job or task running on this instance. */
interface RunningJob {
  readonly controller: AbortController;
  readonly done: Promise<McpJobRunEnd>;
  /** Wakes the handler's waits for answers (tasks whose revision lets them ask for input). */
  readonly wakeups: McpTaskWakeups;
}

/**
 * Runs this instance's jobs and tasks, whatever queue hands them over and whatever revision created them: the one
 * running map, drain at shutdown and bus channel for cancellations and answers. A task's input channel and settlement
 * come from the revision that queued it ({@link MCP_TASK_CHANNELS}).
 */
@Injectable()
export class McpTaskWorker implements McpJobWorker, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpJobs');
  private readonly running = new Map<string, RunningJob>();
  private stopListening?: () => Promise<void>;
  /** When shutdown's grace (`shutdown.graceMs`) ends, counted from the first shutdown hook. */
  private graceEndsAt?: number;

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly runner: McpToolCallRunner,
    private readonly jobs: McpJobStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
    @Optional() @Inject(MCP_TASK_CHANNELS) private readonly channels?: McpTaskChannels,
  ) {}

  /** Listens for cancellations and answers meant for jobs running here (only a server with job tools has any). */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.registry.hasJobs || !this.bus) return;
    this.stopListening = await this.bus.subscribe(JOB_SIGNAL_CHANNEL, (message) => {
      const { jobId, signal } = (message ?? {}) as { jobId?: unknown; signal?: unknown };
      if (typeof jobId === 'string') this.apply(jobId, signal === 'abort' ? 'abort' : 'wake');
    });
  }

  /** Shutdown starts (every module's destroy hook runs before any other shutdown hook): the grace starts now. */
  onModuleDestroy(): void {
    this.graceEndsAt ??= Date.now() + this.options.shutdown.graceMs;
  }

  /** The queue may have drained first (it waits for its jobs); bus signals are heard until the end. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drain();
    await this.stopListening?.().catch(() => undefined);
  }

  /**
   * {@link McpJobWorker.drain}: the interrupted runs' signals abort with {@link McpShutdownInterruption}. The queue calls
   * it before it waits for its worker: Nest runs the shutdown hooks of dependants before those of their dependencies.
   */
  async drain(): Promise<void> {
    this.onModuleDestroy();
    const settled = () => Promise.allSettled([...this.running.values()].map((job) => job.done));
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const graceLeft = Math.max(0, this.graceEndsAt! - Date.now());
    await Promise.race([settled(), new Promise((resolve) => (timer = setTimeout(resolve, graceLeft)))]);
    clearTimeout(timer);
    for (const job of this.running.values()) job.controller.abort(new McpShutdownInterruption());
    await settled();
  }

  /** Runs a queued job unless it is already over (an outcome it cannot record is logged, never rejected). */
  execute(submission: McpJobSubmission): Promise<McpJobRunEnd> {
    const controller = new AbortController();
    const wakeups = new McpTaskWakeups();
    return this.track(submission.jobId, controller, wakeups, this.run(submission, controller, wakeups));
  }

  async abandon(submission: McpJobSubmission): Promise<void> {
    const result = errorResult(
      errorBody('UNAVAILABLE', 'The server stopped before the job finished; start it again.', { retryable: true }),
    );
    await this.jobs.update(submission.tenant, submission.jobId, { status: 'error', result }).catch(() => undefined);
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

  /** Counts a run in the running map until `done` settles. */
  private track(jobId: string, controller: AbortController, wakeups: McpTaskWakeups, done: Promise<McpJobRunEnd>): Promise<McpJobRunEnd> {
    const tracked = done.finally(() => {
      if (this.running.get(jobId)?.done === tracked) this.running.delete(jobId);
    });
    this.running.set(jobId, { controller, done: tracked, wakeups });
    return tracked;
  }

  /**
   * A job's or task's handler context, with the identity, revision and transport of the request that started it:
   * questions through `askClient`, progress into the job record (`onUntracked` before it exists), logs dropped.
   */
  jobContext(input: {
    requestId: JsonRpcId;
    tool: McpToolDefinition;
    tenant: string;
    transport: McpRequestContext['transport'];
    protocolVersion: string;
    principal?: McpPrincipal;
    clientCapabilities?: Record<string, unknown>;
    askClient: NonNullable<McpRequestContext['askClient']>;
    signal: AbortSignal;
    record: () => McpJobRecord | undefined;
    onUntracked?: () => void;
  }): McpToolContext {
    const request: McpRequestContext = {
      transport: input.transport,
      protocolVersion: input.protocolVersion,
      principal: input.principal,
      clientCapabilities: input.clientCapabilities,
      askClient: input.askClient,
      send: (message: JsonRpcMessage) => {
        if (!('method' in message) || message.method !== 'notifications/progress') return; // no stream: logs are dropped
        const job = input.record();
        if (!job) return void input.onUntracked?.();
        if (input.signal.aborted) return;
        const { progress, total, message: text } = message.params as { progress?: number; total?: number; message?: string };
        void this.jobs
          .update(input.tenant, job.id, { progress, total, ...(text !== undefined && { message: text }) })
          .catch(() => undefined);
      },
    };
    // Progress needs a token to be reported at all; a task has no stream, so any token does.
    return createToolContext({
      requestId: input.requestId,
      toolName: input.tool.name,
      progressToken: 'task',
      request,
      signal: input.signal,
    }).context;
  }

  private apply(jobId: string, signal: 'abort' | 'wake'): boolean {
    const job = this.running.get(jobId);
    if (signal === 'abort') job?.controller.abort(new Error('Job cancelled'));
    else job?.wakeups.wake();
    return job !== undefined;
  }

  private async run(submission: McpJobSubmission, controller: AbortController, wakeups: McpTaskWakeups): Promise<McpJobRunEnd> {
    const { tenant, jobId, task } = submission;
    // Cancelled while it waited in the queue, or finished by a worker that died before telling the queue: done.
    const record = await this.jobs.get(tenant, jobId);
    if (!record || isFinal(record.status)) return 'recorded';
    const tool = this.registry.get(submission.tool);
    if (!tool) {
      const result = errorResult(errorBody('INTERNAL_ERROR', "The job's tool no longer exists"));
      await this.jobs.update(tenant, jobId, { status: 'error', result });
      return 'recorded';
    }
    // A queued task: its revision's channel takes its questions from the start and records its outcome.
    const channel = task && this.channels?.open({ record, tool, spec: task, signal: controller.signal, wakeups });
    const context = this.jobContext({
      requestId: channel ? task!.requestId : jobId,
      tool,
      tenant,
      transport: submission.transport,
      protocolVersion: submission.protocolVersion,
      principal: submission.principal,
      clientCapabilities: channel ? task!.clientCapabilities : undefined,
      askClient: channel?.askClient ?? unreachable,
      signal: controller.signal,
      record: () => record,
    });
    const work = this.runner.invokeAccepted(tool, submission.args, context, controller);
    if (channel) {
      const outcome = work.then(
        (result): McpRunOutcome => ({ result }),
        (error: unknown): McpRunOutcome => ({ error }),
      );
      const run = await interruptible(outcome, controller.signal);
      if (run.interrupted) return 'interrupted';
      await channel.settle(run.value);
      return 'recorded';
    }
    try {
      const run = await interruptible(work, controller.signal);
      if (run.interrupted) return 'interrupted';
      const result = run.value;
      await recordOutcome(() => this.jobs.update(tenant, jobId, { status: result.isError ? 'error' : 'success', result }));
    } catch (error) {
      this.logger.error(`Job ${jobId} (${submission.tool}) could not be recorded`, error instanceof Error ? error.stack : String(error));
    }
    return 'recorded';
  }
}

/** A plain job has no client connection behind it: its handler cannot ask the client anything. */
async function unreachable(): Promise<never> {
  throw new McpToolError('CLIENT_UNREACHABLE', 'A background job cannot send requests to the client');
}

/**
 * `work`'s outcome, unless shutdown interrupts it first: a handler that ignores its signal must not hold the
 * instance's exit, and the late outcome of an interrupted run is not recorded (another run takes its place).
 */
function interruptible<T>(work: Promise<T>, signal: AbortSignal): Promise<Interruptible<T>> {
  const interrupted = () => signal.reason instanceof McpShutdownInterruption;
  return new Promise<Interruptible<T>>((resolve, reject) => {
    const onAbort = () => interrupted() && resolve({ interrupted: true });
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => resolve(interrupted() ? { interrupted: true } : { interrupted: false, value }),
      (error: unknown) => (interrupted() ? resolve({ interrupted: true }) : reject(error)),
    );
    void work.finally(() => signal.removeEventListener('abort', onAbort)).catch(() => undefined);
  });
}
