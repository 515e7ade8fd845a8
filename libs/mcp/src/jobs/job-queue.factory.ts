import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpMessageBus } from '../stores/message-bus.js';
import { McpBullJobQueue } from './bullmq-job.queue.js';
import type { McpJobQueue } from './job-queue.interface.js';
import type { McpJobExecutor } from './mcp-job.executor.js';
import type { McpJobStore } from './mcp-job.store.js';
import { McpMemoryJobQueue } from './memory-job.queue.js';

/** `MCP_JOB_QUEUE`: BullMQ when the `redis` option is set (bullmq loaded only then), else a pool in this process. */
export async function createMcpJobQueue(options: McpResolvedOptions, executor: McpJobExecutor, jobs: McpJobStore, bus: McpMessageBus): Promise<McpJobQueue> {
  return options.redis ? McpBullJobQueue.connect({ executor, jobs, bus, options }) : new McpMemoryJobQueue(executor, options.jobs.concurrency);
}
