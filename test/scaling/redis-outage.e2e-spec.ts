import 'reflect-metadata';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { invokeTool, pollUntil, startWeatherInstance } from './scaling-support.js';
import { type RunningApp, withEnv } from '../kit/apps.js';
import { openSession, post, rpc } from '../kit/http.js';

/** What a client sees while Redis is down: retryable refusals, never a job accepted and then lost; then recovery. */
describe('a brief Redis outage', () => {
  let redis: RedisServerHandle;
  let app: RunningApp;

  beforeAll(async () => {
    redis = await startRedisServer();
    app = await startWeatherInstance(redis.url);
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('answers retryable errors while Redis is down and works again once it is back on the same port', async () => {
    const { sessionId } = await openSession(app.url);
    const port = redis.port;
    await redis.stop();

    // A tool touching the store (the Redis alert store): an UNAVAILABLE envelope, retryable.
    const list = await invokeTool(app.url, 'list_weather_alerts');
    expect(list.envelope).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });

    // A job cannot be recorded nor queued: refused as retryable, no pending envelope for a job that will not run.
    const report = await invokeTool(app.url, 'generate_climate_report', { city: 'Tokyo', years: 1 });
    expect(report.envelope?.status).not.toBe('pending');
    expect(report.answer.error?.data ?? report.envelope).toMatchObject({
      status: 'error',
      error: { code: 'UNAVAILABLE', retryable: true },
    });

    // A request in a session (the session lives in Redis): HTTP 503 with Retry-After.
    const inSession = await post(app.url, rpc(2, 'tools/list'), { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' });
    expect(inSession.status).toBe(503);
    expect(inSession.headers.get('retry-after')).toBe('1');
    // Its request id is known, so the error carries it: the client can match the answer to its request.
    expect(inSession.json).toMatchObject({ jsonrpc: '2.0', id: 2, error: { data: { error: { code: 'UNAVAILABLE' } } } });

    redis = await startRedisServer({ port });
    // The connections come back by themselves (the restarted server is empty: the old session is gone).
    await pollUntil(
      () => invokeTool(app.url, 'list_weather_alerts'),
      (answer) => answer.envelope?.status === 'success',
      10_000,
    );
    const created = await invokeTool(app.url, 'create_weather_alert', {
      city: 'Tokyo',
      threshold_celsius: 35,
      priority: 'medium',
      idempotency_key: 'outage-recovered-0001',
    });
    expect(created.envelope).toMatchObject({ status: 'success' });

    // And the job worker takes jobs again.
    await withEnv({ REPORT_DELAY_MS: '100' }, async () => {
      const started = await pollUntil(
        () => invokeTool(app.url, 'generate_climate_report', { city: 'Tokyo', years: 1 }),
        (answer) => answer.envelope?.status === 'pending',
        10_000,
      );
      const jobId = started.envelope.data.job_id as string;
      const done = await pollUntil(
        () => invokeTool(app.url, 'get_job_status', { job_id: jobId }),
        (answer) => answer.envelope?.status !== 'pending',
        15_000,
      );
      expect(done.envelope).toMatchObject({ status: 'success' });
    });
  }, 60_000);

  it('shuts down while Redis is still down (the job worker does not wait for a Redis that is gone)', async () => {
    const down = await startRedisServer();
    const instance = await startWeatherInstance(down.url);
    await down.stop();
    const limited = await invokeTool(instance.url, 'get_weather', { city: 'Tokyo' });
    expect(limited.envelope).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true, retry_after_ms: 1000 } });
    await instance.close();
  }, 20_000);
});
