import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CALLERS, resetRoles, roles, startCallOrderApp } from './fixtures/call-order-app.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post, sleep } from '../kit/http.js';

/**
 * The call pipeline's order over a real socket: a tool's Nest guards run right after authentication and scopes,
 * before the tenant's limits, argument validation and the idempotency key. So a refusal is never stored under an
 * idempotency key, a refused caller spends none of the tenant's calls or places, a refused caller never learns the
 * schema from a VALIDATION_ERROR, and a job is accepted only for a caller its guards admit (and they run once).
 */

type Caller = (typeof CALLERS)[keyof typeof CALLERS];
const as = (caller: Caller) => ({ 'X-API-Key': caller.key });

let keys = 0;
/** A fresh idempotency key (16..64 characters). */
const requestKey = () => `order-${Date.now()}-${++keys}-padding`;

const FORBIDDEN = { status: 'error', error: { code: 'FORBIDDEN', retryable: false, message: expect.any(String) } };

describe('the call pipeline runs guards before limits, validation and idempotency', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startCallOrderApp();
  });
  afterAll(() => app?.close());
  beforeEach(() => resetRoles());

  it('a guard refusal is not kept under the idempotency key: once the caller has the role, the same key runs the tool', async () => {
    const args = { request_key: requestKey(), amount: 5 };
    const refused = await post(app.url, callTool(1, 'admin_write', args), as(CALLERS.alpha));
    expect(envelopeOf(refused)).toEqual(FORBIDDEN);

    roles.admins.add(CALLERS.alpha.subject);
    const retried = await post(app.url, callTool(2, 'admin_write', args), as(CALLERS.alpha));
    expect(envelopeOf(retried)).toEqual({ status: 'success', data: { written: 5 } });
    expect(roles.toolRuns).toEqual(['admin_write']);

    // And now the key holds the success: a third call replays it without running the tool again.
    const replayed = await post(app.url, callTool(3, 'admin_write', args), as(CALLERS.alpha));
    expect(envelopeOf(replayed)).toEqual({ status: 'success', data: { written: 5 } });
    expect(roles.toolRuns).toEqual(['admin_write']);
  });

  it("a refused caller spends none of the tenant's rate limit (5 calls a minute)", async () => {
    for (let id = 1; id <= 6; id++) {
      const refused = await post(app.url, callTool(id, 'admin_write', { request_key: requestKey(), amount: 1 }), as(CALLERS.betaIntruder));
      expect(envelopeOf(refused)).toEqual(FORBIDDEN);
    }
    const admitted = await post(app.url, callTool(5, 'admin_write', { request_key: requestKey(), amount: 2 }), as(CALLERS.betaAdmin));
    expect(envelopeOf(admitted)).toEqual({ status: 'success', data: { written: 2 } });
  });

  it("a refused caller whose guard is still deciding holds none of the tenant's places (one call at a time)", async () => {
    const refusing = post(app.url, callTool(1, 'admin_write', { request_key: requestKey(), amount: 1 }), as(CALLERS.deltaIntruder));
    await sleep(100); // the guard is looking the intruder up (300 ms)
    const admitted = await post(app.url, callTool(2, 'admin_write', { request_key: requestKey(), amount: 3 }), as(CALLERS.deltaAdmin));
    expect(envelopeOf(admitted)).toEqual({ status: 'success', data: { written: 3 } });
    expect(envelopeOf(await refusing)).toEqual(FORBIDDEN);
  });

  it('a refused caller sending invalid arguments gets FORBIDDEN, not a VALIDATION_ERROR naming the fields', async () => {
    const answer = await post(app.url, callTool(1, 'admin_write', { request_key: 'short', amount: 'lots' }), as(CALLERS.gammaIntruder));
    expect(envelopeOf(answer)).toEqual(FORBIDDEN);
    expect(answer.text).not.toMatch(/request_key|amount/);
  });

  it('an admitted caller sending invalid arguments still gets the VALIDATION_ERROR, after the guard ran once', async () => {
    const answer = await post(app.url, callTool(1, 'admin_write', { request_key: 'short', amount: 1 }), as(CALLERS.betaAdmin));
    expect(envelopeOf(answer)).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR', fields: ['request_key'] } });
    expect(roles.guardRuns).toEqual([CALLERS.betaAdmin.subject]);
    expect(roles.toolRuns).toEqual([]);
  });

  it('a job tool refuses at call time, before the job is accepted; an admitted job runs with its guard run once', async () => {
    const refused = await post(app.url, callTool(1, 'admin_job', { request_key: requestKey(), amount: 1 }), as(CALLERS.epsilonIntruder));
    expect(envelopeOf(refused)).toEqual(FORBIDDEN);

    const accepted = envelopeOf(
      await post(app.url, callTool(2, 'admin_job', { request_key: requestKey(), amount: 7 }), as(CALLERS.epsilonAdmin)),
    );
    expect(accepted).toMatchObject({ status: 'pending', data: { job_id: expect.any(String) } });
    // Polled in process: every get_job_status is a call the tenant's rate limit counts.
    for (let polls = 0; roles.toolRuns.length === 0 && polls < 250; polls++) await sleep(20);
    await sleep(50);
    const status = envelopeOf(
      await post(app.url, callTool(3, 'get_job_status', { job_id: accepted.data.job_id }), as(CALLERS.epsilonAdmin)),
    );
    expect(status).toMatchObject({ status: 'success', data: { written: 7 } });
    expect(roles.guardRuns).toEqual([CALLERS.epsilonIntruder.subject, CALLERS.epsilonAdmin.subject]);
    expect(roles.toolRuns).toEqual(['admin_job']);
  });

  it('with the SDK client: a refusal, then the same idempotency key once the role is granted, runs the tool', async () => {
    const client = new Client({ name: 'call-order-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: as(CALLERS.zeta) } }));
    try {
      const args = { request_key: requestKey(), amount: 9 };
      const refused = await client.callTool({ name: 'admin_write', arguments: args });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toEqual(FORBIDDEN);
      roles.admins.add(CALLERS.zeta.subject);
      const retried = await client.callTool({ name: 'admin_write', arguments: args });
      expect(retried.structuredContent).toEqual({ status: 'success', data: { written: 9 } });
    } finally {
      await client.close();
    }
  });
});
