import type { McpJobSubmission } from './job.record.js';

/** How a run ended here: its outcome recorded, or interrupted by shutdown (the queue hands it back or abandons it). */
export type McpJobRunEnd = 'recorded' | 'interrupted';

/** What a job queue hands its jobs to on this instance (the task worker); here so queues need nothing above the engine. */
export interface McpJobWorker {
  /** Runs the job; rejects only when it could not be read before it started (the queue may retry it). */
  execute(submission: McpJobSubmission): Promise<McpJobRunEnd>;
  /** Aborts the job if it runs on this instance; true when it did. */
  abort(jobId: string): boolean;
  /** Cancels (`abort`) or wakes the job where it runs: here, or on the instance that hears it on the bus. */
  signal(jobId: string, signal: 'abort' | 'wake'): void;
  /**
   * Ends a job that shutdown interrupted, or that never started, and that no other instance will take: an
   * `UNAVAILABLE` (retryable) error, so its caller starts it again instead of polling a job nobody runs.
   */
  abandon(submission: McpJobSubmission): Promise<void>;
  /**
   * Shutdown: resolves once every job running here has ended, those still running when `shutdown.graceMs` is
   * over being interrupted (their `execute` resolves `interrupted`).
   */
  drain(): Promise<void>;
}

/** Injection token of this instance's {@link McpJobWorker}: the queue hands it jobs, a cancellation signals it. */
export const MCP_JOB_WORKER = Symbol('MCP_JOB_WORKER');
