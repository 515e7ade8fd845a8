import 'reflect-metadata';
import { attemptsByKey, startFlakyWriteApp, type FirstAttemptOutcome } from './fixtures/idempotent-app.js';
import { instancesOnOneRedis } from '../scaling/scaling-support.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post } from '../kit/http.js';

/**
 * An idempotency key remembers only a call that completed. A failure (a thrown error, INTERNAL_ERROR, TIMEOUT,
 * CANCELLED, UNAVAILABLE, anything retryable) releases the key, so a client's retry with the same key runs
 * again instead of getting the failure replayed for a day. A tool's own non-retryable domain error (such as
 * CITY_NOT_FOUND) is a completed answer: it is kept, and a retry gets it again without running the tool.
 */

let sequence = 0;
const freshKey = (label: string) => `${++sequence}-${label}-${process.pid}-${Date.now()}`.slice(0, 64);

describe('idempotency keys remember completed calls only', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startFlakyWriteApp();
  });

  afterAll(() => app?.close());

  async function write(requestKey: string, first: FirstAttemptOutcome): Promise<any> {
    return envelopeOf(await post(app.url, callTool(1, 'flaky_write', { request_key: requestKey, first })));
  }

  it.each([
    ['crash', 'INTERNAL_ERROR'],
    ['timeout', 'TIMEOUT'],
    ['cancelled', 'CANCELLED'],
    ['unavailable', 'UNAVAILABLE'],
    ['rate_limited', 'RATE_LIMITED'],
  ] as const)('a first attempt that ends %s (%s) is not replayed: the retry with the same key runs and succeeds', async (first, code) => {
    const key = freshKey(first);
    expect(await write(key, first)).toMatchObject({ status: 'error', error: { code } });
    const retry = await write(key, first);
    expect(retry).toEqual({ status: 'success', data: { attempt: 2 } });
    // The success is what the key keeps from now on.
    expect(await write(key, first)).toEqual({ status: 'success', data: { attempt: 2 } });
    expect(attemptsByKey.get(key)).toBe(2);
  });

  it('a non-retryable domain error is a completed answer: kept, and replayed without running the tool again', async () => {
    const key = freshKey('not_found');
    const answer = await write(key, 'not_found');
    expect(answer).toMatchObject({ status: 'error', error: { code: 'CITY_NOT_FOUND', retryable: false } });
    expect(await write(key, 'not_found')).toEqual(answer);
    expect(attemptsByKey.get(key)).toBe(1);
  });

  it('a success is kept as before', async () => {
    const key = freshKey('success');
    expect(await write(key, 'success')).toEqual({ status: 'success', data: { attempt: 1 } });
    expect(await write(key, 'success')).toEqual({ status: 'success', data: { attempt: 1 } });
    expect(attemptsByKey.get(key)).toBe(1);
  });
});

describe('the sample Redis alert store under concurrent creates (two instances, one redis-server)', () => {
  const shared = instancesOnOneRedis({ count: 2 });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));

  async function create(url: string, key: string): Promise<any> {
    return envelopeOf(
      await post(url, callTool(1, 'create_weather_alert', { city: 'Tokyo', threshold_celsius: 30, priority: 'low', idempotency_key: key })),
    );
  }

  async function listAll(url: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = envelopeOf(await post(url, callTool(1, 'list_weather_alerts', { limit: 100, ...(cursor && { cursor }) })));
      expect(page.status).toBe('success');
      ids.push(...page.data.alerts.map((alert: { alert_id: string }) => alert.alert_id));
      cursor = page.data.nextCursor;
    } while (cursor);
    return ids;
  }

  it('100 concurrent create_weather_alert for one tenant, half on each instance, all succeed and are all kept', async () => {
    const keys = Array.from({ length: 100 }, (_, index) => freshKey(`burst-${index}`));
    const answers = await Promise.all(keys.map((key, index) => create(index % 2 ? b.url : a.url, key)));
    const failed = answers.filter((answer) => answer.status !== 'success');
    expect(failed).toEqual([]);

    const created = answers.map((answer) => answer.data.alert_id).sort();
    expect(new Set(created).size).toBe(100);
    expect((await listAll(a.url)).sort()).toEqual(created);
    expect((await listAll(b.url)).sort()).toEqual(created);

    // A retry with the same key, on either instance, answers the stored alert and creates nothing.
    expect(await create(b.url, keys[0])).toEqual(answers[0]);
    expect((await listAll(a.url)).length).toBe(100);
  });
});
