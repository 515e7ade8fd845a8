import { Injectable, Logger } from '@nestjs/common';
import { McpJobMessages } from './job.messages.js';
import type { McpJobSubmission } from './job.record.js';
import type { McpJobQueue } from './job-queue.interface.js';
import { McpJobExecutor } from './mcp-job.executor.js';

/** Runs jobs in this process, right after the call that accepted them has answered. */
@Injectable()
export class McpMemoryJobQueue implements McpJobQueue {
  private readonly logger = new Logger('McpJobs');

  constructor(private readonly executor: McpJobExecutor) {}

  async submit(submission: McpJobSubmission): Promise<void> {
    setImmediate(() => {
      this.executor.execute(submission).catch((error: unknown) => this.logger.error(McpJobMessages.notStarted(submission.jobId), error instanceof Error ? error.stack : String(error)));
    });
  }

  async abort(jobId: string): Promise<void> {
    this.executor.abort(jobId);
  }
}
