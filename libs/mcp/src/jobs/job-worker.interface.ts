import type { McpJobSubmission } from './job.record.js';

/**
 * What a job queue hands its jobs to on this instance (the tasks service): it runs them and aborts the ones it
 * runs. Defined here so the queues need nothing above the job engine.
 */
export interface McpJobWorker {
  /** Runs the job; rejects only when it could not be read before it started (the queue may retry it). */
  execute(submission: McpJobSubmission): Promise<void>;
  /** Aborts the job if it runs on this instance; true when it did. */
  abort(jobId: string): boolean;
}
