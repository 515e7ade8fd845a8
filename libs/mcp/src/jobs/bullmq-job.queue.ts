import { Logger, type BeforeApplicationShutdown, type LoggerService, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, JobsOptions, Queue, Worker } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import { hostname } from 'node:os';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { errorResult } from '../core/results/mcp-result.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';
import { closeRedisClient, createRedisClient, describeRedisTarget, type RedisClient } from '../stores/redis-connection.js';
import { McpStoreMessages } from '../stores/store.messages.js';
import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';
import { loadBullmq, type McpBullMqModule } from './bullmq.loader.js';
import { McpJobMessages } from './job.messages.js';
import type { McpJobSubmission } from './job.record.js';
import type { McpJobQueue, McpJobQueueCounts } from './job-queue.interface.js';
import type { McpJobWorker } from './job-worker.interface.js';
import type { McpJobStore } from './mcp-job.store.js';
import { McpJobTurns } from './job-turns.js';

/** Queue name; BullMQ's `prefix` carries the module's key prefix (a queue name cannot contain ':'). */
const QUEUE_NAME = 'jobs';
const JOB_NAME = 'tool';
/** BullMQ's own failure text for a job whose workers kept dying (see its moveStalledJobsToWait script). */
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;
const ERROR_LOG_INTERVAL_MS = 30_000;
/** How long shutdown waits for BullMQ's worker to close once this instance's jobs have ended. */
const WORKER_CLOSE_BOUND_MS = 2_000;

// The worker's connections wait out an outage instead (BullMQ requires maxRetriesPerRequest null for its
// blocking fetch, and no command timeout: BZPOPMIN blocks by design).
const WORKER_CONNECTION: RedisOptions = {
  lazyConnect: true,
  maxRetriesPerRequest: null,
  connectTimeout: 5_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
  disconnectTimeout: 200,
};

/** What the queue needs from the module. */
export interface McpBullJobQueueDeps {
  worker: McpJobWorker;
  jobs: McpJobStore;
  options: McpResolvedOptions;
  logger?: Pick<LoggerService, 'log' | 'warn' | 'error'>;
}

/**
 * `MCP_JOB_QUEUE` with the redis option: jobs wait in a BullMQ queue in Redis, and a worker on every instance
 * runs them through the task worker (`McpJobWorker`), so a job accepted by one instance may run on another and
 * outlives the instance that accepted it.
 *
 * - A worker that dies mid-job stops renewing its lock; after `jobs.lockDurationMs` another instance's stalled
 *   check puts the job back in the queue (up to `jobs.maxStalledCount` times), then it is failed and its record
 *   marked `error` (`UNAVAILABLE`, retryable).
 * - At shutdown the worker stops taking jobs; running ones get `shutdown.graceMs` to finish, and those the tasks
 *   worker interrupts then are moved back to the queue's waiting list, so another instance takes them at once
 *   instead of after a lock expiry. Queued jobs stay for the others.
 * - Tenants take turns ({@link McpJobTurns}): a job's BullMQ priority is its tenant's count of jobs on the queue,
 *   kept through BullMQ's retries. A job handed back at shutdown or taken over after its instance died goes to
 *   BullMQ's plain waiting list, served before every prioritized job (it had its turn already), as are jobs
 *   queued without a priority by an older release during a rolling upgrade.
 */
export class McpBullJobQueue implements McpJobQueue, OnApplicationBootstrap, BeforeApplicationShutdown {
  private worker?: Worker<McpJobSubmission>;
  private lastErrorLog = 0;
  private readonly logger: Pick<LoggerService, 'log' | 'warn' | 'error'>;
  private readonly turns: McpJobTurns;

  private constructor(
    private readonly bullmq: McpBullMqModule,
    private readonly queue: Queue<McpJobSubmission>,
    private readonly producer: RedisClient,
    private readonly workerClient: RedisClient,
    private readonly deps: McpBullJobQueueDeps,
  ) {
    this.logger = deps.logger ?? new Logger('McpJobs');
    this.turns = new McpJobTurns(producer, deps.options.redis!.keyPrefix, deps.options.jobs.resultTtlMs);
  }

  /** Loads BullMQ and opens the producer side; rejects with `McpStoreUnavailableError` if Redis does not answer. */
  static async connect(deps: McpBullJobQueueDeps): Promise<McpBullJobQueue> {
    const redis = deps.options.redis;
    if (!redis) throw new Error('McpBullJobQueue needs the redis option');
    const bullmq = await loadBullmq();
    // Adding a job fails at once while Redis is down (the store's fail-fast settings): the tool call then answers
    // UNAVAILABLE instead of a pending envelope for a job that was never queued.
    const producer = await createRedisClient(redis);
    const workerClient = await createRedisClient(redis, WORKER_CONNECTION);
    // An 'error' event without a listener would crash the process; outages are reported by the queue and worker.
    for (const client of [producer, workerClient]) client.on('error', () => undefined);
    const queue = new bullmq.Queue<McpJobSubmission>(QUEUE_NAME, { connection: producer, prefix: bullPrefix(deps.options) });
    const instance = new McpBullJobQueue(bullmq, queue, producer, workerClient, deps);
    queue.on('error', (error: Error) => instance.reportError(error));
    try {
      await queue.waitUntilReady();
    } catch (error) {
      await instance.closeConnections();
      const reason = error instanceof Error ? error.message : String(error);
      throw new McpStoreUnavailableError(McpStoreMessages.unreachableAtBoot('job queue', describeRedisTarget(redis), reason), {
        cause: error,
      });
    }
    return instance;
  }

  /** Starts this instance's worker once every tool is registered. */
  async onApplicationBootstrap(): Promise<void> {
    const { options } = this.deps;
    const worker = new this.bullmq.Worker<McpJobSubmission>(QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: this.workerClient,
      prefix: bullPrefix(options),
      // Recorded on each job it takes (BullMQ `processedBy`): which instance ran or holds a job.
      name: `${hostname()}:${process.pid}`,
      concurrency: options.jobs.concurrency,
      lockDuration: options.jobs.lockDurationMs,
      stalledInterval: options.jobs.stalledIntervalMs,
      maxStalledCount: options.jobs.maxStalledCount,
    });
    worker.on('error', (error: Error) => this.reportError(error));
    worker.on('failed', (job: Job<McpJobSubmission> | undefined, error: Error) => void this.markFailed(job, error));
    worker.on('stalled', (jobId: string) => this.logger.warn(McpJobMessages.stalled(jobId)));
    this.worker = worker;
  }

  async submit(submission: McpJobSubmission): Promise<void> {
    const options: JobsOptions = {
      jobId: submission.jobId,
      // Retries cover the executor failing to read the job (store briefly down), not the tool's own failure,
      // which is recorded as the job's result.
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: { age: 24 * 60 * 60, count: 1_000 },
    };
    const { tenant, jobId } = submission;
    try {
      options.priority = await this.turns.take(tenant, jobId);
      await this.queue.add(JOB_NAME, submission, options);
    } catch (error) {
      void this.turns.release(tenant, jobId).catch(() => undefined);
      throw this.unavailable(error);
    }
  }

  /**
   * Aborts the job if it runs here, else takes it out of the queue (its record is final), so a tenant that queues and
   * cancels over and over piles nothing up in Redis. A job running elsewhere is locked: the worker's bus signal aborts it.
   */
  async abort(jobId: string): Promise<void> {
    if (this.deps.worker.abort(jobId)) return;
    // Best effort: a job left in the queue is still skipped by the worker that takes it.
    await this.takeOut(jobId).catch((error: unknown) => this.reportError(error));
  }

  private async takeOut(jobId: string): Promise<void> {
    const job = await this.queue.getJob(jobId);
    if (!job?.data) return;
    if ((await this.queue.remove(jobId)) === 1) await this.turns.release(job.data.tenant, jobId);
  }

  /** Across every instance: BullMQ's waiting, delayed and prioritized jobs wait; its active ones run. */
  async counts(): Promise<McpJobQueueCounts> {
    const counts = await this.queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
    return { waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0), running: counts.active ?? 0 };
  }

  /** PING on the producer's connection (fail-fast: rejects at once while Redis is down). */
  async ping(): Promise<void> {
    await this.producer.ping().catch((error: unknown) => {
      throw this.unavailable(error);
    });
  }

  private unavailable(error: unknown): McpStoreUnavailableError {
    const reason = error instanceof Error ? error.message : String(error);
    return new McpStoreUnavailableError(McpStoreMessages.unavailable(describeRedisTarget(this.deps.options.redis!), reason), {
      cause: error,
    });
  }

  /** Running jobs end (recorded before the store closes, or handed back); queued ones stay for the others. */
  async beforeApplicationShutdown(): Promise<void> {
    const closing = this.worker?.close().catch((error: unknown) => this.reportError(error));
    await this.deps.worker.drain();
    // Our jobs are done or handed back; BullMQ's close then waits for its blocking fetch, which never ends while
    // Redis is down (the connection retries forever): bounded, then the connections are cut below.
    let timer: NodeJS.Timeout | undefined;
    const bound = this.workerClient.status === 'ready' ? WORKER_CLOSE_BOUND_MS : 0;
    await Promise.race([closing, new Promise((resolve) => (timer = setTimeout(resolve, bound)))]);
    clearTimeout(timer);
    await this.queue.close().catch(() => undefined);
    await this.closeConnections();
  }

  /** Runs a job here; one that shutdown interrupted goes back to the waiting list, to the front. */
  private async process(job: Job<McpJobSubmission>, token: string | undefined): Promise<void> {
    if ((await this.deps.worker.execute(job.data)) === 'recorded') return this.endTurn(job.data);
    try {
      // Without a priority it goes to BullMQ's plain waiting list, to the front, and wakes the idle workers: a
      // prioritized job moved back sets no marker, so they would only see it after their blocking fetch times out.
      if (job.priority > 0) await job.changePriority({ priority: 0 });
      await job.moveToWait(token);
      this.logger.log(McpJobMessages.handedBack(job.data.jobId));
    } catch (error) {
      // Redis is out of reach: the lock lapses instead, and the stalled check hands the job over.
      this.reportError(error);
    }
    // Tells BullMQ the job left the active list by other means: it neither completes nor fails it.
    throw new this.bullmq.WaitingError();
  }

  /** A job that failed for good in the queue (its workers kept dying, or it could not be read) ends as `error`. */
  private async markFailed(job: Job<McpJobSubmission> | undefined, error: Error): Promise<void> {
    // `finishedOn` is set only once no retry is left.
    if (!job?.finishedOn || !job.data) return;
    const { tenant, jobId } = job.data;
    await this.endTurn(job.data);
    const workersGone = STALLED_TOO_OFTEN.test(error.message);
    this.logger.error(McpJobMessages.failed(jobId, error.message));
    const envelope = workersGone
      ? errorBody('UNAVAILABLE', 'The job was interrupted: the instances running it stopped. Start it again.', { retryable: true })
      : errorBody('INTERNAL_ERROR', 'The job could not be run; the error was logged on the server.');
    try {
      await this.deps.jobs.update(tenant, jobId, { status: 'error', result: errorResult(envelope) });
    } catch (cause) {
      this.logger.error(McpJobMessages.notMarked(jobId), cause instanceof Error ? cause.stack : String(cause));
    }
  }

  /** The job left the queue: its tenant's next job ranks one place higher. Unreleased, its entry expires. */
  private async endTurn({ tenant, jobId }: McpJobSubmission): Promise<void> {
    await this.turns.release(tenant, jobId).catch((error: unknown) => this.reportError(error));
  }

  /** Outages make BullMQ report an error per attempt: one line per interval is enough. */
  private reportError(error: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLog < ERROR_LOG_INTERVAL_MS) return;
    this.lastErrorLog = now;
    this.logger.warn(McpJobMessages.workerError(error instanceof Error ? error.message : String(error)));
  }

  /** The two clients are ours (BullMQ closes only the duplicates it made); closed at once, never waited on. */
  private async closeConnections(): Promise<void> {
    for (const client of [this.producer, this.workerClient]) await closeRedisClient(client);
  }
}

/**
 * BullMQ keys live under the module's key prefix: `mcp:bull:jobs:…`. On a Redis Cluster BullMQ's scripts touch
 * several keys of the queue at once, so the prefix is one hash tag, `{mcp:bull}:jobs:…` (all on one slot),
 * unless the key prefix already holds a tag.
 */
export function bullPrefix(options: McpResolvedOptions): string {
  const { keyPrefix, cluster } = options.redis!;
  return cluster && !keyPrefix.includes('{') ? `{${keyPrefix}bull}` : `${keyPrefix}bull`;
}
