import type { McpJobSubmission } from './job.record.js';

/**
 * Where accepted jobs wait for a worker. In memory (default) the accepting instance runs them; with Redis a
 * BullMQ queue lets any instance's worker run them.
 */
export interface McpJobQueue {
  submit(submission: McpJobSubmission): Promise<void>;
  /**
   * Takes the job out of the line if it still waits here, else aborts it if it runs here. Other instances hear
   * of a cancellation from the tasks service (its one bus channel), not from the queue.
   */
  abort(jobId: string): Promise<void>;
}

export const MCP_JOB_QUEUE = Symbol('MCP_JOB_QUEUE');
