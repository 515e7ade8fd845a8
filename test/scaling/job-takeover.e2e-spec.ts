import { Redis } from 'ioredis';
import { instancesOnOneRedis, invokeTool, jobHolder, jobRunner, pollUntil } from './scaling-support.js';
import type { SpawnedWeatherServer } from '../kit/apps.js';

/** The events BullMQ wrote for one job (its `events` stream), e.g. `['added', 'active', 'stalled', 'waiting', ...]`. */
async function bullEventsOf(redisUrl: string, jobId: string): Promise<string[]> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const entries = await client.xrange('mcp:bull:jobs:events', '-', '+');
    return entries
      .map(([, fields]) => Object.fromEntries(fields.flatMap((_, index) => (index % 2 === 0 ? [[fields[index], fields[index + 1]]] : []))))
      .filter((event) => event.jobId === jobId)
      .map((event) => event.event as string);
  } finally {
    client.disconnect();
  }
}

/**
 * Two built weather servers (`node dist/apps/weather-server/main.js`) on one Redis, with the library's job
 * defaults: the instance running a job dies (`kill -9`) or is stopped (SIGTERM), and the other one finishes the
 * job, exactly once.
 */
describe('job takeover between instances, with the default job options', () => {
  const shared = instancesOnOneRedis({ built: true });

  /** Starts a climate report on `server` and waits until one of `among` runs it. */
  const startReport = async (server: SpawnedWeatherServer, among: SpawnedWeatherServer[], city: string) => {
    const started = await invokeTool(server.url, 'generate_climate_report', { city, years: 4 });
    expect(started.envelope).toMatchObject({ status: 'pending' });
    const jobId = started.envelope.data.job_id as string;
    const runner = await jobRunner(shared.redis.url, jobId, among);
    return { jobId, runner, survivor: among.find((other) => other !== runner)! };
  };

  /** Milliseconds until `survivor` holds the job. */
  const takeoverBy = async (survivor: SpawnedWeatherServer, jobId: string, since: number, timeoutMs: number) => {
    await pollUntil(
      () => jobHolder(shared.redis.url, jobId, [survivor]),
      (holder) => holder === survivor,
      timeoutMs,
      25,
    );
    return Date.now() - since;
  };

  const finalStatus = (server: SpawnedWeatherServer, jobId: string) =>
    pollUntil(
      () => invokeTool(server.url, 'get_job_status', { job_id: jobId }),
      (status) => status.envelope?.status !== 'pending',
      30_000,
      200,
    );

  it('kill -9 of the instance running a job: the other takes it over within 10 s and completes it once', async () => {
    const [a, b] = await shared.spawn(2, { REPORT_DELAY_MS: '6000' });
    const { jobId, runner, survivor } = await startReport(a, [a, b], 'Sydney');
    // Let it run a while, so the lock has been renewed at least once.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const killedAt = Date.now();
    expect(await runner.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });

    const takeoverMs = await takeoverBy(survivor, jobId, killedAt, 15_000);
    process.stdout.write(`job takeover after kill -9 (lockDurationMs 6000, stalledIntervalMs 2000): ${takeoverMs} ms\n`);
    expect(takeoverMs).toBeLessThanOrEqual(10_000);

    const final = await finalStatus(survivor, jobId);
    expect(final.envelope).toMatchObject({ status: 'success', data: { city: { name: 'Sydney' } } });
    const events = await bullEventsOf(shared.redis.url, jobId);
    expect(events).toContain('stalled');
    expect(events.filter((event) => event === 'completed')).toHaveLength(1);
    expect(events).not.toContain('failed');
    await survivor.stop('SIGTERM');
  }, 90_000);

  it('SIGTERM: a job outliving shutdown.graceMs goes back to the queue, the other instance finishes it at once, exit code 0', async () => {
    const graceMs = 1_000;
    const [a, b] = await shared.spawn(2, { REPORT_DELAY_MS: '8000', MCP_SHUTDOWN_GRACE_MS: String(graceMs) });
    const { jobId, runner, survivor } = await startReport(a, [a, b], 'Lima');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppedAt = Date.now();
    const stopping = runner.stop('SIGTERM', 20_000);

    const handBackMs = await takeoverBy(survivor, jobId, stoppedAt, 15_000);
    process.stdout.write(`job handed back at SIGTERM (shutdown.graceMs ${graceMs}): taken by the other instance after ${handBackMs} ms\n`);
    // The grace, then at once: a stall would take a lock expiry (6 s) plus a check (2 s) after the worker stopped.
    expect(handBackMs).toBeLessThan(graceMs + 2_000);

    expect(await stopping).toEqual({ code: 0, signal: null });
    // Nest writes errors (and warnings) to stderr: none, only the server's own start lines.
    expect(runner.stderr).not.toMatch(/\bERROR\b/);

    const final = await finalStatus(survivor, jobId);
    expect(final.envelope).toMatchObject({ status: 'success', data: { city: { name: 'Lima' } } });
    const events = await bullEventsOf(shared.redis.url, jobId);
    expect(events).not.toContain('stalled');
    expect(events.filter((event) => event === 'completed')).toHaveLength(1);
    await survivor.stop('SIGTERM');
  }, 90_000);
});
