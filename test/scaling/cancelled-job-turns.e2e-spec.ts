import { Redis } from 'ioredis';
import { JOB_KEYS, jobRuns, resetJobRuns, startJobApp } from '../security/fixtures/job-app.js';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { eventually } from '../kit/eventually.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post } from '../kit/http.js';

/**
 * A job cancelled while it waits on the BullMQ queue leaves the queue at once: its record is final, so no worker
 * needs to take and skip it. Before, it stayed in Redis until a worker got to it, and its tenant's count of turns
 * with it: while the workers were busy, a tenant that queued and cancelled `jobs.maxQueuedPerTenant` jobs over and
 * over (each cancel frees its place) piled up jobs in Redis without bound, and its next job ranked behind them all.
 */
const flood = { 'X-API-Key': JOB_KEYS.flood };
const quiet = { 'X-API-Key': JOB_KEYS.quiet };
const MAX_QUEUED = 5;

describe('a job cancelled while it waits on the BullMQ queue', () => {
  let redis: RedisServerHandle;
  let app: RunningApp;
  let client: Redis;

  beforeAll(async () => {
    redis = await startRedisServer();
    app = await startJobApp({ redis: { url: redis.url }, jobs: { concurrency: 1, maxQueuedPerTenant: MAX_QUEUED } });
    client = new Redis(redis.url);
  });

  afterAll(async () => {
    client?.disconnect();
    await app?.close();
    await redis?.stop();
  });

  async function queue(label: string, ms: number, headers: Record<string, string>): Promise<string> {
    const envelope = envelopeOf(await post(app.url, callTool(label, 'slow_job', { label, ms }), headers));
    expect(envelope.status).toBe('pending');
    return envelope.data.job_id as string;
  }

  async function cancel(jobId: string, headers: Record<string, string>): Promise<void> {
    const envelope = envelopeOf(await post(app.url, callTool('cancel', 'cancel_job', { job_id: jobId }), headers));
    expect(envelope).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
  }

  it("leaves the queue and its tenant's turns: queue-and-cancel rounds pile nothing up, and the next job ranks first", async () => {
    resetJobRuns();
    // The one worker is busy for the whole test: nothing queued behind it is taken meanwhile.
    const blocker = await queue('blocker', 10_000, quiet);
    await eventually(() => jobRuns.started.includes('blocker'), 5_000, 'blocker running');

    for (let round = 1; round <= 3; round++) {
      const jobIds: string[] = [];
      for (let index = 1; index <= MAX_QUEUED; index++) jobIds.push(await queue(`r${round}-${index}`, 10, flood));
      for (const jobId of jobIds) await cancel(jobId, flood);
    }
    // Before: 15 cancelled jobs still prioritized in BullMQ and counted in the tenant's turns.
    expect(await client.zcard('mcp:bull:jobs:prioritized')).toBe(0);
    expect(await client.zcard('mcp:job-turns:{tenant-flood}')).toBe(0);

    // The tenant's next job is its first on the queue again (before: priority 16).
    const next = await queue('next', 10, flood);
    expect(await client.hget(`mcp:bull:jobs:${next}`, 'priority')).toBe('1');

    // A running job is not removed: cancelling it aborts it where it runs, and its turn ends with it.
    await cancel(blocker, quiet);
    await eventually(() => jobRuns.started.includes('next') && jobRuns.running === 0, 10_000, 'next job run');
    expect(jobRuns.started).toEqual(['blocker', 'next']);
    await eventually(
      async () => (await client.exists('mcp:job-turns:{tenant-flood}', 'mcp:job-turns:{tenant-quiet}')) === 0,
      5_000,
      'turns given back',
    );
  });
});
