import type * as BullMq from 'bullmq';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { importOptionalPeer } from '../core/optional-peer.js';
import { McpJobMessages } from './job.messages.js';

/** The parts of BullMQ the job queue uses. */
export type McpBullMqModule = Pick<typeof BullMq, 'Queue' | 'Worker' | 'WaitingError'>;

/** BullMQ, imported only when the redis option is used (bullmq is an optional peer, like ioredis). */
export async function loadBullmq(importer: () => Promise<McpBullMqModule> = () => import('bullmq')): Promise<McpBullMqModule> {
  const bullmq = await importOptionalPeer(importer);
  if (!bullmq) throw new McpConfigurationError(McpJobMessages.bullmqMissing());
  const { Queue, Worker, WaitingError } = bullmq;
  return { Queue, Worker, WaitingError };
}
