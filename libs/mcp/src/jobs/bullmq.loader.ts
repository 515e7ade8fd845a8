import type * as BullMq from 'bullmq';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpJobMessages } from './job.messages.js';

/** The parts of BullMQ the job queue uses. */
export type McpBullMqModule = Pick<typeof BullMq, 'Queue' | 'Worker' | 'WaitingError'>;

/** BullMQ, imported only when the redis option is used (bullmq is an optional peer, like ioredis). */
export async function loadBullmq(importer: () => Promise<McpBullMqModule> = () => import('bullmq')): Promise<McpBullMqModule> {
  try {
    const { Queue, Worker, WaitingError } = await importer();
    return { Queue, Worker, WaitingError };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new McpConfigurationError(McpJobMessages.bullmqMissing());
    throw error;
  }
}
