import { Redis } from 'ioredis';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { monitorWhile } from '../kit/redis-monitor.js';
import { startSecApp } from './fixtures/sec-app.js';
import { KEYS, startWeatherWithOptions } from './fixtures/weather-app.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, initializeRequest, post } from '../kit/http.js';

/**
 * Quotas with the Redis store: counted in Redis (a sorted set per tenant and quota), so they hold across
 * instances. At `limits.maxSessionsPerTenant` an `initialize` is refused with 429; counting the tenant's live
 * sessions must not cost one Redis read per session (a flood of refused initializes would otherwise make each
 * of them do `maxSessionsPerTenant` sequential GETs).
 */
const CAP = 250;
const KEY_A = 'session-cap-redis-tenant-a-00001';
const KEY_B = 'session-cap-redis-tenant-b-00002';

describe('per-tenant session cap with Redis (limits.maxSessionsPerTenant)', () => {
  let server: RedisServerHandle;
  let app: RunningApp;
  let observer: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    observer = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await observer.connect();
    app = await startSecApp({
      redis: { url: server.url },
      limits: { maxSessionsPerTenant: CAP },
      auth: {
        apiKeys: [
          { key: KEY_A, tenant: 'tenant-a' },
          { key: KEY_B, tenant: 'tenant-b' },
        ],
      },
    });
  });

  afterAll(async () => {
    await app?.close();
    observer?.disconnect();
    await server?.stop();
  });

  it(`a refused initialize at the cap (${CAP} live sessions) costs a bounded number of Redis commands, not one read per session`, async () => {
    for (let batch = 0; batch < CAP / 25; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, index) => post(app.url, initializeRequest(batch * 25 + index), { 'X-API-Key': KEY_A })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(200));
    }

    let refused: Awaited<ReturnType<typeof post>> | undefined;
    const ran = await monitorWhile(observer, async () => {
      refused = await post(app.url, initializeRequest('over-cap'), { 'X-API-Key': KEY_A });
    });

    expect(refused?.status).toBe(429);
    expect(refused?.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    // One script decides (a few commands inside it); no read per live session.
    expect(ran.fromClients.map(([name]) => name)).not.toContain('get');
    expect(ran.fromClients.length).toBeLessThanOrEqual(2);
    expect(ran.fromClients.length + ran.inScripts.length).toBeLessThanOrEqual(8);

    // The other tenant is not affected by tenant-a's cap.
    expect((await post(app.url, initializeRequest('b'), { 'X-API-Key': KEY_B })).status).toBe(200);
  });
});

describe('idempotency.maxKeysPerTenant with Redis: one quota for the tenant across instances', () => {
  const QUOTA = 5;
  let server: RedisServerHandle;
  const instances: RunningApp[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
    for (let index = 0; index < 2; index++) {
      instances.push(await startWeatherWithOptions({ redis: { url: server.url }, idempotency: { maxKeysPerTenant: QUOTA } }));
    }
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await server?.stop();
  });

  it('fresh keys sent alternately to two instances: exactly the quota is created, the rest is QUOTA_EXCEEDED, the other tenant unaffected', async () => {
    const outcomes: string[] = [];
    for (let index = 0; index < QUOTA * 2; index++) {
      const args = {
        city: 'Paris',
        threshold_celsius: 30,
        priority: 'low',
        idempotency_key: `redis-quota-key-${String(index).padStart(8, '0')}`,
      };
      const envelope = envelopeOf(
        await post(instances[index % 2].url, callTool(index, 'create_weather_alert', args), { 'X-API-Key': KEYS.a }),
      );
      outcomes.push(envelope.status === 'success' ? 'created' : envelope.error.code);
    }
    expect(outcomes).toEqual([...Array(QUOTA).fill('created'), ...Array(QUOTA).fill('QUOTA_EXCEEDED')]);
    const args = { city: 'Paris', threshold_celsius: 30, priority: 'low', idempotency_key: 'redis-quota-key-tenant-b-01' };
    expect(envelopeOf(await post(instances[1].url, callTool(99, 'create_weather_alert', args), { 'X-API-Key': KEYS.b })).status).toBe(
      'success',
    );
  });
});
