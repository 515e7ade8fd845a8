import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { McpBullJobQueue } from './bullmq-job.queue.js';
import type { McpJobQueue } from './job-queue.interface.js';
import type { McpJobWorker } from './job-worker.interface.js';
import type { McpJobStore } from './mcp-job.store.js';
import { McpMemoryJobQueue } from './memory-job.queue.js';

/** `MCP_JOB_QUEUE`: BullMQ when the `redis` option is set (bullmq loaded only then), else a pool in this process. */
export async function createMcpJobQueue(options: McpResolvedOptions, worker: McpJobWorker, jobs: McpJobStore): Promise<McpJobQueue> {
  return options.redis ? McpBullJobQueue.connect({ worker, jobs, options }) : new McpMemoryJobQueue(worker, options.jobs.concurrency);
}
