import { KEYS, MCP_API_KEYS } from './fixtures/weather-app.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { callTool, envelopeOf, type HttpAnswer, post } from '../kit/http.js';

/**
 * The sample's alerts are bounded: a tenant keeps at most 1 000 (one more is ALERT_LIMIT_REACHED, retryable,
 * other tenants unaffected), and list_weather_alerts answers one bounded page per call with a cursor to the
 * next, instead of every alert at once (an unpaged answer reached 39 MB).
 */

const a = { 'X-API-Key': KEYS.a };
const b = { 'X-API-Key': KEYS.b };
const MAX_ALERTS = 1_000;

function createCall(id: number, key: string): Record<string, unknown> {
  return callTool(id, 'create_weather_alert', {
    city: 'Paris',
    threshold_celsius: 25,
    priority: 'low',
    idempotency_key: `${key}.`.padEnd(16, 'x'),
  });
}

function envelopesOf(answer: HttpAnswer): any[] {
  expect(answer.status).toBe(200);
  return (answer.json as any[]).sort((x, y) => x.id - y.id).map((message) => envelopeOf({ ...answer, json: message }));
}

describe('alert limits of the sample (in-memory store)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startWeatherApp({ env: { MCP_API_KEYS } });
    // 1 000 alerts for tenant-a, 50 per batched POST.
    for (let batch = 0; batch < MAX_ALERTS / 50; batch++) {
      const calls = Array.from({ length: 50 }, (_, index) => createCall(index + 1, `limit-${batch}-${index}`));
      const envelopes = envelopesOf(await post(app.url, calls, a));
      expect(envelopes.filter((envelope) => envelope.status !== 'success')).toEqual([]);
    }
  });

  afterAll(() => app?.close());

  it('refuses the 1 001st alert of a tenant with ALERT_LIMIT_REACHED (retryable); another tenant still creates', async () => {
    const refused = envelopeOf(await post(app.url, createCall(1, 'limit-one-too-many'), a));
    expect(refused).toMatchObject({ status: 'error', error: { code: 'ALERT_LIMIT_REACHED', retryable: true } });
    expect(refused.error.message).toMatch(/1000 alerts/);
    expect(envelopeOf(await post(app.url, createCall(2, 'limit-other-tenant'), b)).status).toBe('success');
  });

  it('list_weather_alerts answers pages of 50 by default, with a nextCursor until the last page', async () => {
    const first = await post(app.url, callTool(1, 'list_weather_alerts'), a);
    const page = envelopeOf(first);
    expect(page.status).toBe('success');
    expect(page.data.alerts).toHaveLength(50);
    expect(typeof page.data.nextCursor).toBe('string');
    expect(first.text.length).toBeLessThan(64 * 1024);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await post(app.url, callTool(2, 'list_weather_alerts', { limit: 200, ...(cursor && { cursor }) }), a);
      const next = envelopeOf(answer);
      expect(next.data.alerts.length).toBeLessThanOrEqual(200);
      seen.push(...next.data.alerts.map((alert: { alert_id: string }) => alert.alert_id));
      cursor = next.data.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(MAX_ALERTS);
    // Page one of the default size is the start of the same order.
    expect(seen.slice(0, 50)).toEqual(page.data.alerts.map((alert: { alert_id: string }) => alert.alert_id));

    const ofB = envelopeOf(await post(app.url, callTool(3, 'list_weather_alerts'), b));
    expect(ofB.data.alerts).toHaveLength(1);
    expect(ofB.data).not.toHaveProperty('nextCursor');
  });

  it('refuses a limit above 200 and a cursor it did not hand out (VALIDATION_ERROR)', async () => {
    expect(envelopeOf(await post(app.url, callTool(1, 'list_weather_alerts', { limit: 201 }), a))).toMatchObject({
      status: 'error',
      error: { code: 'VALIDATION_ERROR' },
    });
    for (const cursor of ['not-a-cursor', Buffer.from('after:-1').toString('base64url')]) {
      expect(envelopeOf(await post(app.url, callTool(2, 'list_weather_alerts', { cursor }), a))).toMatchObject({
        status: 'error',
        error: { code: 'VALIDATION_ERROR', fields: ['cursor'] },
      });
    }
  });

  it('documents the paging and the cap in the tool descriptions', async () => {
    const answer = await post(app.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, a);
    const tools = answer.json.result.tools as Array<{ name: string; description: string; inputSchema: any }>;
    const list = tools.find((tool) => tool.name === 'list_weather_alerts')!;
    expect(list.description).toMatch(/nextCursor/);
    expect(Object.keys(list.inputSchema.properties).sort()).toEqual(['cursor', 'limit']);
    expect(list.inputSchema.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
    expect(tools.find((tool) => tool.name === 'create_weather_alert')!.description).toMatch(/1000 alerts/);
  });
});
