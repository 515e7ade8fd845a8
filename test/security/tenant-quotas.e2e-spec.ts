import { call2026 } from '../rev-2026-07-28/support/requests.js';
import { KEYS, startWeatherWithOptions } from './fixtures/weather-app.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, initializeRequest, openSession, post, rpc, send, sleep } from '../kit/http.js';

/**
 * A tenant that floods the store (fresh idempotency keys, sessions, jobs) is held to its own quotas: beyond
 * them it gets a retryable QUOTA_EXCEEDED, and no other tenant loses a session, a job or an idempotency record.
 * The quotas are small here (the defaults are 10 000) so the flood takes a few hundred calls, not 110 000.
 */
const MAX_STORED_KEYS = 50;
const MAX_IDEMPOTENCY_KEYS = 40;
const A = { 'X-API-Key': KEYS.a };
const B = { 'X-API-Key': KEYS.b };

let idempotencySequence = 0;
const freshKey = (label: string) => `${label}-${String(++idempotencySequence).padStart(12, '0')}`;
const alertArgs = (idempotencyKey: string) => ({ city: 'Paris', threshold_celsius: 30, priority: 'low', idempotency_key: idempotencyKey });

async function createAlert(app: RunningApp, headers: Record<string, string>, idempotencyKey: string) {
  return envelopeOf(await post(app.url, callTool(1, 'create_weather_alert', alertArgs(idempotencyKey)), headers));
}

async function pollJob(app: RunningApp, headers: Record<string, string>, jobId: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const envelope = envelopeOf(await post(app.url, callTool(1, 'get_job_status', { job_id: jobId }), headers));
    if (envelope.status !== 'pending') return envelope;
    await sleep(50);
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe('per-tenant store quotas (limits.maxStoredKeysPerTenant, idempotency.maxKeysPerTenant)', () => {
  let app: RunningApp;
  const reportDelay = process.env.REPORT_DELAY_MS;
  const floodKeysOfA: string[] = [];
  let firstAlertOfA: string | undefined;

  beforeAll(async () => {
    process.env.REPORT_DELAY_MS = '20';
    app = await startWeatherWithOptions({
      limits: { maxStoredKeysPerTenant: MAX_STORED_KEYS },
      idempotency: { maxKeysPerTenant: MAX_IDEMPOTENCY_KEYS },
    });
  });

  afterAll(async () => {
    await app?.close();
    if (reportDelay === undefined) delete process.env.REPORT_DELAY_MS;
    else process.env.REPORT_DELAY_MS = reportDelay;
  });

  it("a tenant flooding create_weather_alert with fresh keys gets QUOTA_EXCEEDED; the other tenant's idle session, finished job and idempotency record survive", async () => {
    // Tenant B: an idle session, a finished job and an alert created under an idempotency key.
    const sessionOfB = (await openSession(app.url, { headers: B })).sessionId;
    const keyOfB = freshKey('tenant-b-alert');
    const alertOfB = await createAlert(app, B, keyOfB);
    expect(alertOfB.status).toBe('success');
    const pending = envelopeOf(await post(app.url, callTool(1, 'generate_climate_report', { city: 'Paris', years: 1 }), B));
    expect(pending.status).toBe('pending');
    const jobOfB = pending.data.job_id as string;
    expect((await pollJob(app, B, jobOfB)).status).toBe('success');

    // Tenant A floods with fresh idempotency keys.
    const outcomes: string[] = [];
    for (let index = 0; index < MAX_IDEMPOTENCY_KEYS + 20; index++) {
      floodKeysOfA.push(freshKey('tenant-a-flood'));
      const envelope = await createAlert(app, A, floodKeysOfA[index]);
      if (index === 0) firstAlertOfA = envelope.data?.alert_id;
      outcomes.push(envelope.status === 'success' ? 'created' : envelope.error.code);
      if (envelope.status === 'error') {
        expect(envelope.error).toMatchObject({ code: 'QUOTA_EXCEEDED', retryable: true, retry_after_ms: expect.any(Number) });
        expect(envelope.error.message).toContain('idempotency.maxKeysPerTenant');
      }
    }
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(MAX_IDEMPOTENCY_KEYS);
    expect(outcomes.filter((outcome) => outcome === 'QUOTA_EXCEEDED')).toHaveLength(20);

    // B's session is still there (a 404 would mean it was evicted).
    expect((await post(app.url, rpc(2, 'tools/list'), { ...B, 'Mcp-Session-Id': sessionOfB })).status).toBe(200);
    // B's finished job is still there, over the tool and over its poll URL.
    expect((await pollJob(app, B, jobOfB)).status).toBe('success');
    expect((await send(`${app.url}/jobs/${jobOfB}`, { headers: B })).status).toBe(200);
    // B's retry with the same key answers the first alert: no second alert.
    const retried = await createAlert(app, B, keyOfB);
    expect(retried.data.alert_id).toBe(alertOfB.data.alert_id);
    const listed = envelopeOf(await post(app.url, callTool(3, 'list_weather_alerts'), B));
    expect(listed.data.alerts).toHaveLength(1);
    // And B still has its own room.
    expect((await createAlert(app, B, freshKey('tenant-b-alert'))).status).toBe('success');
  });

  it('a tenant at its idempotency quota still gets the stored result of a key it used before', async () => {
    // The previous test left tenant A at its quota.
    expect((await createAlert(app, A, freshKey('tenant-a-more'))).error?.code).toBe('QUOTA_EXCEEDED');
    const again = await createAlert(app, A, floodKeysOfA[0]);
    expect(again).toMatchObject({ status: 'success', data: { alert_id: firstAlertOfA } });
  });

  it('sessions and jobs share the stored-records quota: beyond it initialize gets 429 with a JSON-RPC error and a job call QUOTA_EXCEEDED', async () => {
    // A holds MAX_IDEMPOTENCY_KEYS idempotency records; sessions fill the rest of its stored-records quota.
    const sessions: string[] = [];
    for (let index = 0; index < MAX_STORED_KEYS - MAX_IDEMPOTENCY_KEYS; index++) {
      const answer = await post(app.url, initializeRequest(index + 1), A);
      expect(answer.status).toBe(200);
      sessions.push(answer.headers.get('mcp-session-id')!);
    }
    const refused = await post(app.url, initializeRequest(99), A);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.json).toMatchObject({ jsonrpc: '2.0', id: 99, error: { code: expect.any(Number), message: expect.any(String) } });

    const job = envelopeOf(await post(app.url, callTool(1, 'generate_climate_report', { city: 'Paris', years: 1 }), A));
    expect(job).toMatchObject({ status: 'error', error: { code: 'QUOTA_EXCEEDED', retryable: true } });
    expect(job.error.message).toContain('limits.maxStoredKeysPerTenant');

    // The same over the 2026-07-28 tasks extension: a completed call with the envelope, not a task or a crash.
    const asTask = await call2026(
      app.url,
      7,
      'tools/call',
      { name: 'generate_climate_report', arguments: { city: 'Paris', years: 1 } },
      {
        capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
        headers: A,
      },
    );
    const taskAnswer = asTask.messages.find((message) => message.id === 7) as any;
    expect(taskAnswer?.result).toMatchObject({
      isError: true,
      structuredContent: { status: 'error', error: { code: 'QUOTA_EXCEEDED', retryable: true } },
    });

    // B is unaffected; ending one of A's sessions frees its place at once.
    expect((await post(app.url, initializeRequest(100), B)).status).toBe(200);
    expect((await send(app.url, { method: 'DELETE', headers: { ...A, 'Mcp-Session-Id': sessions[0] } })).status).toBe(200);
    expect((await post(app.url, initializeRequest(101), A)).status).toBe(200);
  });
});

describe('quota places come back when records expire (sessions.idleTtlMs: 300)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startWeatherWithOptions({ limits: { maxSessionsPerTenant: 2 }, sessions: { idleTtlMs: 300 } });
  });
  afterAll(() => app?.close());

  it('a tenant at its session cap can open a session again once an idle one has expired', async () => {
    expect((await post(app.url, initializeRequest(1), A)).status).toBe(200);
    expect((await post(app.url, initializeRequest(2), A)).status).toBe(200);
    expect((await post(app.url, initializeRequest(3), A)).status).toBe(429);
    await sleep(400);
    expect((await post(app.url, initializeRequest(4), A)).status).toBe(200);
  });
});
