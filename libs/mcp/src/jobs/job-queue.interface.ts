import type { McpJobSubmission } from './job.record.js';

/**
 * Where accepted jobs wait for a worker. In memory (default) the accepting instance runs them; with Redis a
 * BullMQ queue lets any instance's worker run them.
 */
export interface McpJobQueue {
  submit(submission: McpJobSubmission): Promise<void>;
  /** Asks whichever instance runs the job to abort it. */
  abort(jobId: string): Promise<void>;
}

export const MCP_JOB_QUEUE = Symbol('MCP_JOB_QUEUE');
