import { bootErrors } from '../core/errors/boot-errors.js';

/** Boot and log texts of the job queues, each naming the place and the fix (boot errors: `docs/errors.md`). */
export const McpJobMessages = {
  ...bootErrors({
    bullmqMissing: {
      code: 'MCP_ERR_JOBS_BULLMQ_MISSING',
      message: () =>
        'McpModule option "redis" runs jobs on BullMQ: install the bullmq package (npm install bullmq), or remove the redis option to run jobs in memory.',
      fix: '`npm install bullmq`.',
    },
  }),
  notStarted: (jobId: string) => `Job ${jobId} could not be started: its record could not be read`,
  notQueued: (jobId: string) => `Job ${jobId} could not be queued; the call answers UNAVAILABLE and the job is marked failed`,
  failed: (jobId: string, reason: string) => `Job ${jobId} failed in the queue (${reason}); it is marked as an error`,
  notMarked: (jobId: string) => `Job ${jobId} failed in the queue and could not be marked as an error`,
  workerError: (reason: string) => `The BullMQ worker reported an error (${reason}); it keeps retrying.`,
  abortNotBroadcast: (jobId: string) =>
    `The cancellation of job ${jobId} could not be sent to the other instances; it stops only if it runs here`,
  handedBack: (jobId: string) => `Job ${jobId} was interrupted by shutdown and handed back to the queue for another instance`,
  stalled: (jobId: string) =>
    `Job ${jobId} lost its worker (process gone or blocked past jobs.lockDurationMs); another worker takes it over`,
};
