import 'reflect-metadata';
import { eventually } from '../kit/eventually.js';
import { MCP_JOB_QUEUE } from '../../libs/mcp/src/jobs/job-queue.interface.js';
import { McpBullJobQueue } from '../../libs/mcp/src/jobs/bullmq-job.queue.js';
import { McpTaskWorker } from '../../libs/mcp/src/features/tasks/task-worker.js';
import { McpJobService } from '../../libs/mcp/src/jobs/mcp-job.service.js';
import { DEFAULT_TENANT } from '../../libs/mcp/src/core/tenant.js';
import { invokeTool, pollUntil, instancesOnOneRedis } from './scaling-support.js';
import { type RunningApp, withEnv } from '../kit/apps.js';

/** Jobs on BullMQ and idempotency keys, with two weather-server instances sharing one Redis. */
describe('jobs and idempotency across instances', () => {
  const shared = instancesOnOneRedis({ count: 2 });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));

  const runningOn = (app: RunningApp) => (app.app.get(McpTaskWorker) as unknown as { running: Map<string, unknown> }).running;

  it('runs jobs on BullMQ with the redis option', () => {
    expect(a.app.get(MCP_JOB_QUEUE)).toBeInstanceOf(McpBullJobQueue);
  });

  it('a climate report started on A is polled on B, by get_job_status and by GET /mcp/jobs/<id>, until success', async () => {
    await withEnv({ REPORT_DELAY_MS: '400' }, async () => {
      const started = await invokeTool(a.url, 'generate_climate_report', { city: 'Berlin', years: 2 });
      expect(started.envelope).toMatchObject({
        status: 'pending',
        data: { job_id: expect.stringMatching(/^job_/), poll_url: expect.stringMatching(/^\/mcp\/jobs\/job_/) },
      });
      const { job_id: jobId, poll_url: pollUrl } = started.envelope.data;

      const final = await pollUntil(
        () => invokeTool(b.url, 'get_job_status', { job_id: jobId }),
        (status) => status.envelope?.status !== 'pending',
        15_000,
      );
      expect(final.envelope).toMatchObject({
        status: 'success',
        data: { city: { name: 'Berlin' }, years: [expect.any(Object), expect.any(Object)] },
      });

      const polled = await fetch(new URL(pollUrl, b.url));
      expect(polled.status).toBe(200);
      expect(await polled.json()).toEqual(final.envelope);
    });
  });

  it('cancel_job on the instance that does not run the job stops it where it runs, and it stays cancelled', async () => {
    await withEnv({ REPORT_DELAY_MS: '20000' }, async () => {
      const started = await invokeTool(a.url, 'generate_climate_report', { city: 'Stockholm', years: 10 });
      const jobId = started.envelope.data.job_id as string;
      await eventually(() => runningOn(a).has(jobId) || runningOn(b).has(jobId), 10_000, 'the job started');
      const other = runningOn(a).has(jobId) ? b : a;

      const cancelled = await invokeTool(other.url, 'cancel_job', { job_id: jobId });
      expect(cancelled.envelope).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
      // The instance running it got the abort over the bus and stopped.
      await eventually(() => !runningOn(a).has(jobId) && !runningOn(b).has(jobId), 5_000, 'the job stopped');
      expect((await invokeTool(a.url, 'get_job_status', { job_id: jobId })).envelope).toMatchObject({
        status: 'error',
        error: { code: 'CANCELLED' },
      });
    });
  });

  it('a cancel through the job engine on the instance that does not run the job stops it where it runs too', async () => {
    await withEnv({ REPORT_DELAY_MS: '20000' }, async () => {
      const started = await invokeTool(a.url, 'generate_climate_report', { city: 'Berlin', years: 10 });
      const jobId = started.envelope.data.job_id as string;
      await eventually(() => runningOn(a).has(jobId) || runningOn(b).has(jobId), 10_000, 'the job started');
      const other = runningOn(a).has(jobId) ? b : a;

      // The one cancel path every surface takes (cancel_job, both eras' tasks/cancel) announces it on the bus.
      const record = await other.app.get(McpJobService).cancel(DEFAULT_TENANT, jobId);
      expect(record?.status).toBe('cancelled');
      await eventually(() => !runningOn(a).has(jobId) && !runningOn(b).has(jobId), 5_000, 'the job stopped');
    });
  });

  it('two parallel calls with one idempotency key, on A and on B, create exactly one alert and answer the same', async () => {
    const args = { city: 'Madrid', threshold_celsius: 38, priority: 'high', idempotency_key: `scale-${Date.now()}-duplicate` };
    const [onA, onB] = await Promise.all([
      invokeTool(a.url, 'create_weather_alert', args),
      invokeTool(b.url, 'create_weather_alert', args),
    ]);
    expect(onA.envelope).toMatchObject({ status: 'success', data: { city: 'Madrid', threshold_celsius: 38 } });
    expect(onB.answer.result).toEqual(onA.answer.result);

    for (const app of [a, b]) {
      const alerts = (await invokeTool(app.url, 'list_weather_alerts')).envelope.data.alerts as Array<{ city: string }>;
      expect(alerts.filter((alert) => alert.city === 'Madrid')).toEqual([onA.envelope.data]);
    }
  });

  it('alerts created on different instances at the same time are all kept (atomic per-tenant writes)', async () => {
    const cities = ['Lisbon', 'Rome', 'Amsterdam', 'Istanbul', 'Stockholm', 'Athens'];
    await Promise.all(
      cities.map((city, index) =>
        invokeTool(index % 2 ? b.url : a.url, 'create_weather_alert', {
          city,
          threshold_celsius: 20,
          priority: 'low',
          idempotency_key: `scale-${Date.now()}-${city}-k`,
        }),
      ),
    );
    const alerts = (await invokeTool(b.url, 'list_weather_alerts')).envelope.data.alerts as Array<{ city: string }>;
    expect(alerts.map((alert) => alert.city)).toEqual(expect.arrayContaining(cities));
  });
});
