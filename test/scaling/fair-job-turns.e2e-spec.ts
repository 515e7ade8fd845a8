import { Redis } from 'ioredis';
import { JOB_KEYS, jobRuns, resetJobRuns, startJobApp } from '../security/fixtures/job-app.js';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { eventually } from '../kit/eventually.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post } from '../kit/http.js';

/**
 * With `redis`, jobs wait in BullMQ: a tenant that queues many jobs must not make another tenant's job wait behind
 * all of them. Each job's BullMQ priority is its tenant's count of jobs on the queue, so the other tenant's first
 * job ranks with the flood's first. One worker (`jobs.concurrency` 1): the order of starts is the queue's order.
 */
const flood = { 'X-API-Key': JOB_KEYS.flood };
const quiet = { 'X-API-Key': JOB_KEYS.quiet };

/** Queues one slow_job per label in a single batched POST; answers each job's id, in order. */
async function queueJobs(url: string, labels: string[], ms: number, headers: Record<string, string>): Promise<string[]> {
  const answer = await post(
    url,
    labels.map((label, index) => callTool(index + 1, 'slow_job', { label, ms })),
    headers,
  );
  const byId = new Map((answer.json as any[]).map((message) => [message.id, message]));
  return labels.map((_, index) => {
    const envelope = envelopeOf({ ...answer, json: byId.get(index + 1) });
    expect(envelope.status).toBe('pending');
    return envelope.data.job_id as string;
  });
}

describe('tenants take turns on the BullMQ queue', () => {
  let redis: RedisServerHandle;
  let app: RunningApp;

  beforeAll(async () => {
    redis = await startRedisServer();
    app = await startJobApp({ redis: { url: redis.url }, jobs: { concurrency: 1 } });
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  it("a tenant's two jobs start before the remaining jobs of a tenant that queued twenty first", async () => {
    resetJobRuns();
    const floodLabels = Array.from({ length: 20 }, (_, index) => `flood-${index + 1}`);
    await queueJobs(app.url, floodLabels, 100, flood);
    const [q1, q2] = await queueJobs(app.url, ['quiet-1', 'quiet-2'], 10, quiet);
    await eventually(() => jobRuns.started.length === 22 && jobRuns.running === 0, 20_000, 'every job run');

    const started = jobRuns.started;
    expect([...started].sort()).toEqual([...floodLabels, 'quiet-1', 'quiet-2'].sort());
    // FIFO would start them 21st and 22nd. In turns: the flood's job running when they came (maybe one more,
    // if it ended meanwhile), then quiet-1 (priority 1), then quiet-2 with the flood's second (priority 2, FIFO).
    const floodBefore = (label: string) => started.slice(0, started.indexOf(label)).filter((name) => name.startsWith('flood-')).length;
    expect(floodBefore('quiet-1')).toBeLessThanOrEqual(2);
    expect(floodBefore('quiet-2')).toBeLessThanOrEqual(3);
    for (const jobId of [q1, q2]) {
      const status = envelopeOf(await post(app.url, callTool('status', 'get_job_status', { job_id: jobId }), quiet));
      expect(status.status).toBe('success');
    }
    // Ended jobs leave their tenant's count (the sets of turns empty out and are gone).
    const client = new Redis(redis.url);
    try {
      await eventually(
        async () => (await client.exists('mcp:job-turns:{tenant-flood}', 'mcp:job-turns:{tenant-quiet}')) === 0,
        5_000,
        'turns given back',
      );
    } finally {
      client.disconnect();
    }
  });
});
