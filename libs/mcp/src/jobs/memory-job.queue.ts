import { Injectable } from '@nestjs/common';
import type { McpJobSubmission } from './job.record.js';
import type { McpJobQueue } from './job-queue.interface.js';
import { McpJobExecutor } from './mcp-job.executor.js';

/** Runs jobs in this process, right after the call that accepted them has answered. */
@Injectable()
export class McpMemoryJobQueue implements McpJobQueue {
  constructor(private readonly executor: McpJobExecutor) {}

  async submit(submission: McpJobSubmission): Promise<void> {
    setImmediate(() => void this.executor.execute(submission));
  }

  async abort(jobId: string): Promise<void> {
    this.executor.abort(jobId);
  }
}
