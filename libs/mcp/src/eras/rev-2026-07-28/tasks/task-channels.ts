import { Injectable, Logger } from '@nestjs/common';
import type { McpToolDefinition } from '../../../features/tools/mcp-tool-definition.interface.js';
import type { McpRunOutcome, McpTaskChannels, McpTaskInputChannel, McpTaskRun } from '../../../features/tasks/task-channel.interface.js';
import type { McpTaskWakeups } from '../../../features/tasks/task-wakeups.js';
import { JsonRpcErrorCode } from '../../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcErrorObject } from '../../../core/json-rpc/json-rpc.types.js';
import { McpToolError } from '../../../core/errors/mcp-tool.error.js';
import type { McpJobRecord } from '../../../jobs/job.record.js';
import { McpJobStore } from '../../../jobs/mcp-job.store.js';
import { recordOutcome } from '../../../jobs/outcome-retry.js';
import { Rev20260728Refusals } from '../refusals.js';
import { Rev20260728Messages } from '../rev-2026-07-28.messages.js';
import { McpInputRound, type McpInputRequest } from '../mrtr/input-round.js';
import { McpMissingClientCapabilitySignal } from '../../../core/missing-client-capability.signal.js';
import { McpTaskStateStore, type McpTaskState } from './task-state.store.js';

/** How often a task waiting for input looks for answers delivered to another instance. */
const ANSWER_POLL_MS = 250;

/**
 * The input channel of 2026-07-28 tasks (SEP-2663): questions go to the task state (`tasks/get` `inputRequests`), answers
 * come from `tasks/update` on any instance; a crash is recorded as a `failed` task with a JSON-RPC error.
 */
@Injectable()
export class McpRev20260728TaskChannels implements McpTaskChannels {
  private readonly logger = new Logger('McpJobs');

  constructor(
    private readonly jobs: McpJobStore,
    private readonly states: McpTaskStateStore,
  ) {}

  /**
   * A queued task: the answers its request's rounds collected (an `inputFirst` task) are there from the start;
   * any other question waits for `tasks/update`.
   */
  open(run: McpTaskRun): McpTaskInputChannel {
    const round = new McpInputRound({ capabilities: run.spec.clientCapabilities, known: run.spec.answers });
    round.delegate = (key, request) => this.awaitAnswer(run.record, key, request, run.signal, run.wakeups);
    return { askClient: round.ask, settle: (outcome) => this.settle(run.record, run.tool, outcome) };
  }

  /**
   * Publishes a question on the task and waits until `tasks/update` answers it (or the task is cancelled). An
   * answer stays in the task state: a run that takes the task over (its instance died or shut down) asks the
   * same keys in the same order and gets them at once, so the client never answers twice.
   */
  async awaitAnswer(
    job: McpJobRecord,
    key: string,
    request: McpInputRequest,
    signal: AbortSignal,
    wakeups: McpTaskWakeups,
  ): Promise<Record<string, unknown>> {
    const given = await this.states.update(job.tenant, job.id, job.ttlMs, (state: McpTaskState) => {
      if (state.answers[key] === undefined) state.inputRequests[key] = request;
      return state.answers[key];
    });
    if (given !== undefined) return given as Record<string, unknown>;
    for (;;) {
      // A tool error, not a crash: the task is cancelled already and its record says so.
      if (signal.aborted) throw new McpToolError('CANCELLED', 'The task was cancelled while it waited for input');
      const answer = (await this.states.get(job.tenant, job.id)).answers[key];
      if (answer !== undefined) return answer as Record<string, unknown>;
      await wakeups.wait(ANSWER_POLL_MS, signal);
    }
  }

  /**
   * Records a task's outcome (retried while the store is away, see `recordOutcome`); an unexpected failure (an
   * `INTERNAL_ERROR`) is a failed task with a JSON-RPC error.
   */
  async settle(job: McpJobRecord, tool: McpToolDefinition, outcome: McpRunOutcome): Promise<void> {
    try {
      const result = outcome.result;
      const crashed =
        !result ||
        (result.isError === true &&
          (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code === 'INTERNAL_ERROR');
      if (crashed) {
        const missing = outcome.error instanceof McpMissingClientCapabilitySignal;
        if (!result && !missing)
          this.logger.error(
            Rev20260728Messages.taskFailed(job.id, tool.name),
            outcome.error instanceof Error ? outcome.error.stack : String(outcome.error),
          );
        const failure: JsonRpcErrorObject = missing
          ? Rev20260728Refusals.missingCapability((outcome.error as McpMissingClientCapabilitySignal).requiredCapabilities).toJsonRpcError()
          : { code: JsonRpcErrorCode.INTERNAL_ERROR, message: 'Internal error' };
        await recordOutcome(() =>
          this.states.update(job.tenant, job.id, job.ttlMs, (state) => {
            state.failure = failure;
            state.inputRequests = {};
          }),
        );
        await recordOutcome(() => this.jobs.update(job.tenant, job.id, { status: 'error', ...(result && { result }) }));
        return;
      }
      await recordOutcome(() => this.states.update(job.tenant, job.id, job.ttlMs, (state) => void (state.inputRequests = {})));
      await recordOutcome(() => this.jobs.update(job.tenant, job.id, { status: result.isError ? 'error' : 'success', result }));
    } catch (error) {
      this.logger.error(Rev20260728Messages.taskNotRecorded(job.id), error instanceof Error ? error.stack : String(error));
    }
  }
}
