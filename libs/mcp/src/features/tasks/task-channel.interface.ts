import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { McpCallToolResult } from '../../core/results/content.types.js';
import type { McpJobRecord, McpTaskRunSpec } from '../../jobs/job.record.js';
import type { McpTaskWakeups } from './task-wakeups.js';

/** How a handler's outcome ended: its result, or what it threw (a crash or a control-flow signal). */
export type McpRunOutcome = { readonly result?: McpCallToolResult; readonly error?: unknown };

/**
 * What the revision that created a task hands the worker for it: where the handler's input requests go and how its
 * outcome is recorded (the worker knows no revision; 2026-07-28's tasks extension implements it).
 */
export interface McpTaskInputChannel {
  /** The handler's `askClient`: resolves with the client's answer, however it reaches the task. */
  readonly askClient: NonNullable<McpRequestContext['askClient']>;
  /** Records how the handler ended (the job record and whatever the revision keeps beside it); never rejects. */
  settle(outcome: McpRunOutcome): Promise<void>;
}

/** One queued task about to run on this instance, as the worker hands it to {@link McpTaskChannels.open}. */
export interface McpTaskRun {
  readonly record: McpJobRecord;
  readonly tool: McpToolDefinition;
  readonly spec: McpTaskRunSpec;
  /** Fired by cancellation (here or heard on the bus) or the tool's timeout. */
  readonly signal: AbortSignal;
  /** Woken when answers for this task arrive (here or heard on the bus). */
  readonly wakeups: McpTaskWakeups;
}

/** Opens the input channel of each queued task (`McpJobSubmission.task`) the worker runs. */
export interface McpTaskChannels {
  open(run: McpTaskRun): McpTaskInputChannel;
}

/**
 * Injection token of the {@link McpTaskChannels} of the revision that queues tasks. Without one, a queued task runs
 * as a plain job (no input, outcome in the job record).
 */
export const MCP_TASK_CHANNELS = Symbol('MCP_TASK_CHANNELS');
