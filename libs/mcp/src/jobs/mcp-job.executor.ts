import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { McpToolRegistry } from '../features/tools/mcp-tool.registry.js';
import { McpToolCallRunner } from '../execution/tool-call.runner.js';
import { envelopeToCallToolResult } from '../core/results/mcp-result.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';
import { isFinal, type McpJobSubmission } from './job.record.js';
import { createJobToolContext } from './job-tool-context.js';
import { McpJobStore } from './mcp-job.store.js';

/** Runs jobs on this instance: the tool's handler under its timeout, progress and outcome into the job record. */
@Injectable()
export class McpJobExecutor implements BeforeApplicationShutdown {
  private readonly logger = new Logger('McpJobs');
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly runner: McpToolCallRunner,
    private readonly jobs: McpJobStore,
  ) {}

  /**
   * Runs the job unless it is already over. Resolves once its outcome is recorded (or logged as unrecordable);
   * rejects only when the job could not be read before it started (the queue may retry it), never for the
   * tool's own failure.
   */
  execute(submission: McpJobSubmission): Promise<void> {
    const controller = new AbortController();
    const done = this.run(submission, controller).finally(() => this.running.delete(submission.jobId));
    this.running.set(submission.jobId, { controller, done });
    return done;
  }

  /** Aborts the job if it runs here; true when it did. */
  abort(jobId: string): boolean {
    const job = this.running.get(jobId);
    job?.controller.abort(new Error('Job cancelled'));
    return job !== undefined;
  }

  /** Lets running jobs finish before the process exits (graceful shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((job) => job.done));
  }

  private async run(submission: McpJobSubmission, controller: AbortController): Promise<void> {
    const { tenant, jobId } = submission;
    // Cancelled while it waited in the queue, or finished by a worker that died before telling the queue: done.
    const record = await this.jobs.get(tenant, jobId);
    if (!record || isFinal(record.status)) return;
    const tool = this.registry.get(submission.tool);
    if (!tool) {
      const result = envelopeToCallToolResult({ status: 'error', error: errorBody('INTERNAL_ERROR', 'The job\'s tool no longer exists') });
      await this.jobs.update(tenant, jobId, { status: 'error', result });
      return;
    }
    const context = createJobToolContext(submission, controller.signal, (progress, total, message) => {
      void this.jobs.update(tenant, jobId, { progress, total, message }).catch(() => undefined);
    });
    try {
      const result = await this.runner.run(tool, submission.args, context, controller);
      await this.jobs.update(tenant, jobId, { status: result.isError ? 'error' : 'success', result });
    } catch (error) {
      this.logger.error(`Job ${jobId} (${submission.tool}) could not be recorded`, error instanceof Error ? error.stack : String(error));
    }
  }
}
