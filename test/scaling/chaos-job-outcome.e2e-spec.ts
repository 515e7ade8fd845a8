import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import type { RunningApp } from '../kit/apps.js';
import { invokeTool, pollUntil, startWeatherInstance } from './scaling-support.js';

/**
 * The chaos test's Redis restart, narrowed to one job (test/scaling/chaos.e2e-spec.ts found it): a job whose tool
 * finishes while Redis is away must still end up recorded once Redis is back, never `pending` for ever.
 */
describe('a job that finishes while Redis restarts', () => {
  let dataDir: string;
  let redis: RedisServerHandle | undefined;
  let app: RunningApp | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nest-mcp-job-outcome-'));
    redis = await startRedisServer({ appendOnly: { dir: dataDir } });
    app = await startWeatherInstance(redis!.url);
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('records its outcome once Redis is back (AOF: the record and the queue survive the restart)', async () => {
    // The sample's 2 s report in four steps: progress every 0.5 s, the outcome after 2 s.
    const started = await invokeTool(app!.url, 'generate_climate_report', { city: 'Lima', years: 4 });
    expect(started.envelope).toMatchObject({ status: 'pending' });
    const jobId = started.envelope.data.job_id as string;
    const status = () => invokeTool(app!.url, 'get_job_status', { job_id: jobId });
    await pollUntil(status, (answer) => (answer.envelope?.data?.progress ?? 0) >= 1, 5_000, 50);

    // Redis dies while the job runs and comes back after the tool has returned.
    const port = redis!.port;
    await redis!.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    redis = await startRedisServer({ port, appendOnly: { dir: dataDir } });

    // UNAVAILABLE is the store still reconnecting, not the job's outcome.
    const over = (envelope: any) =>
      envelope?.status === 'success' || (envelope?.status === 'error' && envelope.error?.code !== 'UNAVAILABLE');
    const final = await pollUntil(status, (answer) => over(answer.envelope), 15_000, 200).catch((error: Error) => ({
      timedOut: error.message,
    }));
    expect(final).toMatchObject({ envelope: { status: 'success', data: { city: { name: 'Lima' } } } });
  }, 40_000);
});
