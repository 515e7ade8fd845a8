import type { Provider } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import { afterServerChecks, McpServerDirectory } from '../options/mcp-server.directory.js';
import { MCP_JOB_QUEUE } from './job-queue.interface.js';
import { createMcpJobQueue } from './job-queue.factory.js';
import { MCP_JOB_WORKER } from './job-worker.interface.js';
import { McpJobSlots } from './job-slots.js';
import { McpJobService } from './mcp-job.service.js';
import { McpJobStore } from './mcp-job.store.js';

/** The job engine: records, slots, the service, and the queue (memory or BullMQ) that hands jobs to `MCP_JOB_WORKER`. */
export const MCP_JOB_PROVIDERS: Provider[] = [
  McpJobStore,
  McpJobSlots,
  McpJobService,
  {
    provide: MCP_JOB_QUEUE,
    useFactory: afterServerChecks(createMcpJobQueue),
    inject: [McpServerDirectory, MCP_RESOLVED_OPTIONS, MCP_JOB_WORKER, McpJobStore],
  },
];
