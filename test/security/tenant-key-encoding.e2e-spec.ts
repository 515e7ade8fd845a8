import { HS_SECRET, signToken } from './fixtures/tokens.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { callTool, envelopeOf, openSession, post, rpc, send } from '../kit/http.js';

/**
 * Tenant ids are caller-controlled text inside store keys (`job:<tenant>:<id>`, `idem:<tenant>:<tool>:<key>`)
 * and session owners. Tenants whose names contain the separator (`:`, `\0`), `/` or non-ASCII letters must
 * never reach each other's jobs, idempotency records or sessions.
 */
const TENANTS = {
  acme: 'acme',
  acmeEu: 'acme:eu',
  /** Chosen so that, unescaped, `idem:<tenant>:<tool>:<key>` equals acme's key `create_weather_alert:<key>`. */
  acmeTool: 'acme:create_weather_alert',
  slash: 'team/eu',
  unicode: '京都:東山',
  unicodeParent: '京都',
} as const;

const keyOf = (tenant: string) => `key-${Buffer.from(tenant).toString('hex')}-0123456789`.slice(0, 60);
const MCP_API_KEYS = Object.values(TENANTS)
  .map((tenant) => `${keyOf(tenant)}|${tenant}|weather:read weather:write`)
  .join(',');
const as = (tenant: string) => ({ 'X-API-Key': keyOf(tenant) });

async function bearer(tenant: string, subject: string): Promise<Record<string, string>> {
  return {
    Authorization: `Bearer ${await signToken({ tenant_id: tenant, sub: subject, scope: 'weather:read weather:write' }, HS_SECRET)}`,
  };
}

async function startReport(app: RunningApp, headers: Record<string, string>): Promise<string> {
  const pending = envelopeOf(await post(app.url, callTool(1, 'generate_climate_report', { city: 'Paris', years: 1 }), headers));
  expect(pending.status).toBe('pending');
  return pending.data.job_id as string;
}

describe('tenant ids are escaped in store keys and session owners', () => {
  let app: RunningApp;
  const reportDelay = process.env.REPORT_DELAY_MS;

  beforeAll(async () => {
    // Long enough that a job is still pending while another tenant tries to read and cancel it.
    process.env.REPORT_DELAY_MS = '20000';
    app = await startWeatherApp({ env: { MCP_API_KEYS, MCP_JWT_SECRET: HS_SECRET } });
  });

  afterAll(async () => {
    await app?.close();
    if (reportDelay === undefined) delete process.env.REPORT_DELAY_MS;
    else process.env.REPORT_DELAY_MS = reportDelay;
  });

  it("tenant acme cannot read or cancel tenant acme:eu's job by asking for job id eu:<id> (tools and GET /mcp/jobs/eu:<id>)", async () => {
    const jobId = await startReport(app, as(TENANTS.acmeEu));
    const crafted = `eu:${jobId}`;

    const status = envelopeOf(await post(app.url, callTool(2, 'get_job_status', { job_id: crafted }), as(TENANTS.acme)));
    expect(status).toMatchObject({ status: 'error', error: { code: 'JOB_NOT_FOUND' } });
    const cancel = envelopeOf(await post(app.url, callTool(3, 'cancel_job', { job_id: crafted }), as(TENANTS.acme)));
    expect(cancel).toMatchObject({ status: 'error', error: { code: 'JOB_NOT_FOUND' } });
    const polled = await send(`${app.url}/jobs/${encodeURIComponent(crafted)}`, { headers: as(TENANTS.acme) });
    expect(polled.status).toBe(404);
    // A REST route: a plain JSON error, not a JSON-RPC one.
    expect(polled.json).toEqual({ error: { code: 'JOB_NOT_FOUND', message: `No job "${crafted}" for this caller` } });

    // The owner still sees its job pending (not cancelled), and can cancel it itself.
    const own = envelopeOf(await post(app.url, callTool(4, 'get_job_status', { job_id: jobId }), as(TENANTS.acmeEu)));
    expect(own.status).toBe('pending');
    const cancelled = envelopeOf(await post(app.url, callTool(5, 'cancel_job', { job_id: jobId }), as(TENANTS.acmeEu)));
    expect(cancelled).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
  });

  it('job ids not of the generated form are JOB_NOT_FOUND without reaching the store', async () => {
    for (const jobId of ['job_', 'eu:job_abc', '../job_x', `job_${'A'.repeat(23)}:`, 'job_\u0000']) {
      const status = envelopeOf(await post(app.url, callTool(1, 'get_job_status', { job_id: jobId }), as(TENANTS.acme)));
      expect(status).toMatchObject({ status: 'error', error: { code: 'JOB_NOT_FOUND' } });
    }
  });

  it("tenant acme's idempotency key `create_weather_alert:<k>` is its own, not tenant acme:create_weather_alert's key <k>", async () => {
    const key = 'shared-suffix-0123456789';
    const first = envelopeOf(
      await post(
        app.url,
        callTool(1, 'create_weather_alert', { city: 'Paris', threshold_celsius: 30, priority: 'low', idempotency_key: key }),
        as(TENANTS.acmeTool),
      ),
    );
    expect(first.status).toBe('success');
    const crafted = envelopeOf(
      await post(
        app.url,
        callTool(2, 'create_weather_alert', {
          city: 'Paris',
          threshold_celsius: 30,
          priority: 'low',
          idempotency_key: `create_weather_alert:${key}`,
        }),
        as(TENANTS.acme),
      ),
    );
    // Unescaped, both were one record: acme got IDEMPOTENCY_KEY_REUSED for a key it had never used.
    expect(crafted.error?.code).toBeUndefined();
    expect(crafted.status).toBe('success');
    expect(crafted.data.alert_id).not.toBe(first.data.alert_id);
    const listed = envelopeOf(await post(app.url, callTool(3, 'list_weather_alerts'), as(TENANTS.acme)));
    expect(listed.data.alerts.map((alert: { alert_id: string }) => alert.alert_id)).toContain(crafted.data.alert_id);
  });

  it('a session of tenant "x\\0y" / subject "bob" is not accepted for tenant "x" / subject "y\\0bob"', async () => {
    const owner = await bearer('x\u0000y', 'bob');
    const sessionId = (await openSession(app.url, { headers: owner })).sessionId;
    expect((await post(app.url, rpc(2, 'ping'), { ...owner, 'Mcp-Session-Id': sessionId })).status).toBe(200);
    const other = await post(app.url, rpc(3, 'ping'), { ...(await bearer('x', 'y\u0000bob')), 'Mcp-Session-Id': sessionId });
    expect(other.status).toBe(404);
  });

  it.each([
    ['acme:eu', TENANTS.acmeEu, TENANTS.acme],
    ['team/eu', TENANTS.slash, TENANTS.acme],
    ['京都:東山 (unicode)', TENANTS.unicode, TENANTS.unicodeParent],
  ])(
    'tenant %s reads and cancels its own job; another tenant cannot, with the plain id or a prefixed one',
    async (_label, owner, other) => {
      const jobId = await startReport(app, as(owner));
      for (const asked of [jobId, `${owner.split(':').pop()}:${jobId}`]) {
        const foreign = envelopeOf(await post(app.url, callTool(1, 'get_job_status', { job_id: asked }), as(other)));
        expect(foreign).toMatchObject({ status: 'error', error: { code: 'JOB_NOT_FOUND' } });
        expect((await send(`${app.url}/jobs/${encodeURIComponent(asked)}`, { headers: as(other) })).status).toBe(404);
      }
      expect((await send(`${app.url}/jobs/${jobId}`, { headers: as(owner) })).status).toBe(200);
      const cancelled = envelopeOf(await post(app.url, callTool(2, 'cancel_job', { job_id: jobId }), as(owner)));
      expect(cancelled).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    },
  );
});
