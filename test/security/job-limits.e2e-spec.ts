import { JOB_KEYS, jobRuns, resetJobRuns, startJobApp } from './fixtures/job-app.js';
import { type RunningApp } from '../kit/apps.js';
import { instancesOnOneRedis } from '../scaling/scaling-support.js';
import { callTool, envelopeOf, post, rpc, sleep } from '../kit/http.js';

/**
 * Jobs in memory mode (no redis option): one tenant submitting many long-running calls must not take every
 * worker or queue without end. A bounded pool (`jobs.concurrency`) runs the jobs, the rest wait as `pending`;
 * a tenant holding `jobs.maxQueuedPerTenant` queued-or-running jobs is refused with a retryable QUOTA_EXCEEDED.
 * With Redis the cap is counted in the store, so it holds for the tenant across instances.
 */

const flood = { 'X-API-Key': JOB_KEYS.flood };
const quiet = { 'X-API-Key': JOB_KEYS.quiet };

/** Submits one slow_job per label in a single batched POST; returns each call's envelope, in order. */
async function submitBatch(url: string, labels: string[], ms: number, headers: Record<string, string>): Promise<any[]> {
  const batch = labels.map((label, index) => callTool(index + 1, 'slow_job', { label, ms }));
  const answer = await post(url, batch, headers);
  expect(answer.status).toBe(200);
  const byId = new Map((answer.json as any[]).map((message) => [message.id, message]));
  return labels.map((_, index) => envelopeOf({ ...answer, json: byId.get(index + 1) }));
}

async function jobStatus(url: string, jobId: string, headers: Record<string, string>): Promise<any> {
  return envelopeOf(await post(url, callTool('status', 'get_job_status', { job_id: jobId }), headers));
}

/** Polls until every job has left `pending`; returns their final envelopes. */
async function waitForAll(url: string, jobIds: string[], headers: Record<string, string>, timeoutMs = 10_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const envelopes = await Promise.all(jobIds.map((id) => jobStatus(url, id, headers)));
    if (envelopes.every((envelope) => envelope.status !== 'pending')) return envelopes;
    if (Date.now() > deadline) throw new Error(`jobs still pending after ${timeoutMs} ms: ${JSON.stringify(envelopes)}`);
    await sleep(50);
  }
}

describe('job limits in memory mode', () => {
  let app: RunningApp;

  afterEach(async () => {
    await app?.close();
  });

  it('runs at most jobs.concurrency jobs at once; the others wait as pending and all complete', async () => {
    resetJobRuns();
    app = await startJobApp({ jobs: { concurrency: 2, maxQueuedPerTenant: 10 } });
    const labels = ['j1', 'j2', 'j3', 'j4', 'j5', 'j6'];
    const accepted = await submitBatch(app.url, labels, 150, flood);
    expect(accepted.map((envelope) => envelope.status)).toEqual(labels.map(() => 'pending'));

    // While the first two run, the others are pending and have not started.
    await sleep(60);
    expect(jobRuns.running).toBe(2);
    const waiting = await jobStatus(app.url, accepted[5].data.job_id, flood);
    expect(waiting.status).toBe('pending');

    const done = await waitForAll(
      app.url,
      accepted.map((envelope) => envelope.data.job_id),
      flood,
    );
    expect(done.map((envelope) => envelope.status)).toEqual(labels.map(() => 'success'));
    expect(jobRuns.maxRunning).toBe(2);
    expect([...jobRuns.started].sort()).toEqual(labels);
  });

  it("refuses a tenant's jobs beyond jobs.maxQueuedPerTenant with a retryable QUOTA_EXCEEDED; another tenant is served meanwhile", async () => {
    resetJobRuns();
    app = await startJobApp({ jobs: { concurrency: 2, maxQueuedPerTenant: 4 } });
    const accepted = await submitBatch(app.url, ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'], 1_000, flood);
    expect(accepted.slice(0, 4).map((envelope) => envelope.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    for (const refused of accepted.slice(4)) {
      expect(refused).toMatchObject({ status: 'error', error: { code: 'QUOTA_EXCEEDED', retryable: true } });
      expect(refused.error.message).toMatch(/4 jobs/);
    }

    // The other tenant still gets quick answers, and its job is next in line, before the flood's waiting ones.
    const quick = envelopeOf(await post(app.url, callTool(1, 'quick_answer'), quiet));
    expect(quick).toEqual({ status: 'success', data: { tenant: 'tenant-quiet' } });
    const [own] = await submitBatch(app.url, ['b1'], 10, quiet);
    expect(own.status).toBe('pending');

    // Cancelling a waiting job frees its place at once.
    const cancelled = envelopeOf(await post(app.url, callTool(2, 'cancel_job', { job_id: accepted[3].data.job_id }), flood));
    expect(cancelled).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    const [again] = await submitBatch(app.url, ['a7'], 10, flood);
    expect(again.status).toBe('pending');

    expect((await waitForAll(app.url, [own.data.job_id], quiet, 5_000))[0].status).toBe('success');
    expect(jobRuns.started.slice(0, 3)).toEqual(['a1', 'a2', 'b1']);
    for (const envelope of [...accepted.slice(0, 3), again]) {
      await post(app.url, callTool(3, 'cancel_job', { job_id: envelope.data.job_id }), flood);
    }
  });

  it('a job waiting for a worker can be cancelled: it ends cancelled and never runs', async () => {
    resetJobRuns();
    app = await startJobApp({ jobs: { concurrency: 1 } });
    const [running, queued] = await submitBatch(app.url, ['first', 'second'], 300, flood);
    await sleep(30);
    expect(jobRuns.started).toEqual(['first']);

    const cancelled = envelopeOf(await post(app.url, callTool(1, 'cancel_job', { job_id: queued.data.job_id }), flood));
    expect(cancelled).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    const [first] = await waitForAll(app.url, [running.data.job_id], flood);
    expect(first.status).toBe('success');
    await sleep(50);
    expect(jobRuns.started).toEqual(['first']);
    expect((await jobStatus(app.url, queued.data.job_id, flood)).error.code).toBe('CANCELLED');
  });

  it('jobs.maxQueuedPerTenant defaults to 100 and jobs.concurrency to 10', async () => {
    resetJobRuns();
    app = await startJobApp();
    const labels = Array.from({ length: 101 }, (_, index) => `d${index}`);
    const first = await submitBatch(app.url, labels.slice(0, 50), 1_000, flood);
    const second = await submitBatch(app.url, labels.slice(50), 1_000, flood);
    const all = [...first, ...second];
    expect(all.filter((envelope) => envelope.status === 'pending')).toHaveLength(100);
    expect(all[100]).toMatchObject({ status: 'error', error: { code: 'QUOTA_EXCEEDED', retryable: true } });
    await sleep(50);
    expect(jobRuns.running).toBe(10);
    const answer = await post(app.url, rpc('alive', 'ping'), quiet);
    expect(answer.json).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
    await Promise.all(
      all.slice(0, 100).map((envelope) => post(app.url, callTool(1, 'cancel_job', { job_id: envelope.data.job_id }), flood)),
    );
  });
});

describe('job limits with Redis (BullMQ), two instances', () => {
  const shared = instancesOnOneRedis({
    count: 2,
    start: (redisUrl) => startJobApp({ redis: { url: redisUrl }, jobs: { concurrency: 1, maxQueuedPerTenant: 3 } }),
  });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));

  it("jobs.maxQueuedPerTenant counts the tenant's jobs on every instance; one worker per instance runs them", async () => {
    resetJobRuns();
    const onA = await submitBatch(a.url, ['r1', 'r2'], 300, flood);
    const onB = await submitBatch(b.url, ['r3', 'r4'], 300, flood);
    const all = [...onA, ...onB];
    expect(all.filter((envelope) => envelope.status === 'pending')).toHaveLength(3);
    expect(all.filter((envelope) => envelope.error?.code === 'QUOTA_EXCEEDED')).toHaveLength(1);

    const accepted = all.filter((envelope) => envelope.status === 'pending').map((envelope) => envelope.data.job_id);
    const done = await waitForAll(a.url, accepted, flood);
    expect(done.map((envelope) => envelope.status)).toEqual(['success', 'success', 'success']);
    expect(jobRuns.maxRunning).toBeLessThanOrEqual(2);
    // Their places are free again.
    expect((await submitBatch(b.url, ['r5', 'r6', 'r7'], 10, flood)).map((envelope) => envelope.status)).toEqual([
      'pending',
      'pending',
      'pending',
    ]);
  });
});
