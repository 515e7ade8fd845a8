import type { McpJobSubmission } from './job.record.js';

/**
 * Where accepted jobs wait for a worker. In memory (default) the accepting instance runs them; with Redis a
 * BullMQ queue lets any instance's worker run them.
 */
export interface McpJobQueue {
  submit(submission: McpJobSubmission): Promise<void>;
  /**
   * Takes the job out of the line if it still waits here, else aborts it if it runs here. Other instances hear
   * of a cancellation from the worker's bus signal (`McpJobService.cancel` sends both), not from the queue.
   */
  abort(jobId: string): Promise<void>;
  /** Jobs waiting for a worker and running now (metrics): this process's pool, or the whole BullMQ queue. */
  counts?(): Promise<McpJobQueueCounts>;
  /** Rejects when the queue cannot be reached (health checks); absent for a queue in this process. */
  ping?(): Promise<void>;
}

/** What {@link McpJobQueue.counts} reports. */
export interface McpJobQueueCounts {
  waiting: number;
  running: number;
}

export const MCP_JOB_QUEUE = Symbol('MCP_JOB_QUEUE');
