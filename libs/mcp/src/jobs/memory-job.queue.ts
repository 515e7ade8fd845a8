import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { McpJobMessages } from './job.messages.js';
import type { McpJobSubmission } from './job.record.js';
import type { McpJobQueue, McpJobQueueCounts } from './job-queue.interface.js';
import type { McpJobWorker } from './job-worker.interface.js';

/**
 * Runs jobs in this process on `jobs.concurrency` workers. A free worker takes the oldest waiting job of the tenant
 * with the fewest jobs running, so a tenant with a long line does not make another's job wait for all of it. At
 * shutdown no waiting job starts, and no other instance will run it: it ends `UNAVAILABLE` (retryable), as does a
 * running job the tasks worker interrupts once `shutdown.graceMs` is over.
 */
export class McpMemoryJobQueue implements McpJobQueue, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpJobs');
  /** Jobs waiting, per tenant in arrival order; the tenants in turn order (Maps: insertion order, O(1) removal). */
  private readonly waiting = new Map<string, Map<string, McpJobSubmission>>();
  private readonly tenantOf = new Map<string, string>();
  private readonly runningOf = new Map<string, number>();
  private running = 0;
  private stopped = false;

  constructor(
    private readonly executor: McpJobWorker,
    private readonly concurrency: number,
  ) {}

  async submit(submission: McpJobSubmission): Promise<void> {
    const line = this.waiting.get(submission.tenant) ?? new Map<string, McpJobSubmission>();
    line.set(submission.jobId, submission);
    this.waiting.set(submission.tenant, line);
    this.tenantOf.set(submission.jobId, submission.tenant);
    setImmediate(() => this.startWaiting());
  }

  async abort(jobId: string): Promise<void> {
    if (!this.takeOut(jobId)) this.executor.abort(jobId);
  }

  async counts(): Promise<McpJobQueueCounts> {
    return { waiting: this.tenantOf.size, running: this.running };
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    const left = [...this.waiting.values()].flatMap((line) => [...line.values()]);
    this.waiting.clear();
    this.tenantOf.clear();
    await Promise.all(left.map((submission) => this.executor.abandon(submission)));
  }

  /** Hands waiting jobs to free workers; called on each submission and whenever a job ends. */
  private startWaiting(): void {
    while (!this.stopped && this.running < this.concurrency) {
      const next = this.nextInTurn();
      if (!next) return;
      this.running += 1;
      this.countRunning(next.tenant, 1);
      this.executor
        .execute(next)
        .then((end) => (end === 'interrupted' ? this.executor.abandon(next) : undefined))
        .catch((error: unknown) =>
          this.logger.error(McpJobMessages.notStarted(next.jobId), error instanceof Error ? error.stack : String(error)),
        )
        .finally(() => {
          this.running -= 1;
          this.countRunning(next.tenant, -1);
          this.startWaiting();
        });
    }
  }

  /** The oldest job of the waiting tenant with the fewest running; that tenant then goes to the back of the turn. */
  private nextInTurn(): McpJobSubmission | undefined {
    let tenant: string | undefined;
    let line: Map<string, McpJobSubmission> | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const [candidate, candidateLine] of this.waiting) {
      const running = this.runningOf.get(candidate) ?? 0;
      if (running < fewest) [tenant, line, fewest] = [candidate, candidateLine, running];
      if (running === 0) break;
    }
    if (tenant === undefined || !line) return undefined;
    const [jobId, submission] = line.entries().next().value!;
    this.takeOut(jobId);
    if (line.size > 0) {
      this.waiting.delete(tenant);
      this.waiting.set(tenant, line);
    }
    return submission;
  }

  private countRunning(tenant: string, change: number): void {
    const running = (this.runningOf.get(tenant) ?? 0) + change;
    if (running > 0) this.runningOf.set(tenant, running);
    else this.runningOf.delete(tenant);
  }

  /** Removes a waiting job; false when it is not waiting here. */
  private takeOut(jobId: string): boolean {
    const tenant = this.tenantOf.get(jobId);
    const line = tenant === undefined ? undefined : this.waiting.get(tenant);
    if (tenant === undefined || !line) return false;
    this.tenantOf.delete(jobId);
    line.delete(jobId);
    if (line.size === 0) this.waiting.delete(tenant);
    return true;
  }
}
