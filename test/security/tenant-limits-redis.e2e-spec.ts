import { Redis } from 'ioredis';
import type { McpModuleOptions } from '@nest-mcp/core';
import { MCP_STORE, type McpKeyValueStore } from '../../libs/mcp/src/stores/key-value.store.js';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { monitorWhile } from '../kit/redis-monitor.js';
import { eventually } from '../kit/eventually.js';
import { startSecApp } from './fixtures/sec-app.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post, sleep } from '../kit/http.js';
import { openSse } from '../kit/sse.js';

/**
 * `limits.rateLimit`, `limits.maxConcurrentCallsPerTenant` and `limits.maxStreamsPerTenant` with the Redis store:
 * counted in Redis, so two instances on one Redis enforce one limit per tenant, not one each. A call's slot is a
 * lease, so the slots of an instance that can no longer release them (it died) come back by themselves.
 */
const A = 'cluster-limits-tenant-a-key-00001';
const B = 'cluster-limits-tenant-b-key-00002';
const auth = {
  apiKeys: [
    { key: A, tenant: 'tenant-a' },
    { key: B, tenant: 'tenant-b' },
  ],
};

const outcome = (answer: Awaited<ReturnType<typeof post>>) => {
  const envelope = envelopeOf(answer);
  return envelope.status === 'success' ? 'OK' : envelope.error.code;
};

describe('per-tenant call and stream limits across two instances on one Redis', () => {
  let redis: RedisServerHandle;
  const apps: RunningApp[] = [];

  async function pair(options: Partial<McpModuleOptions>): Promise<[RunningApp, RunningApp]> {
    const both = [
      await startSecApp({ redis: { url: redis.url, keyPrefix: `limits-${apps.length}:` }, auth, ...options }),
      await startSecApp({ redis: { url: redis.url, keyPrefix: `limits-${apps.length}:` }, auth, ...options }),
    ] as [RunningApp, RunningApp];
    apps.push(...both);
    return both;
  }

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await redis?.stop();
  });

  it('limits.rateLimit: calls alternating between A and B share one window per tenant; the other tenant has its own', async () => {
    const [a, b] = await pair({ limits: { rateLimit: { limit: 3, windowMs: 60_000 } } });
    const outcomes: string[] = [];
    for (let index = 0; index < 6; index++)
      outcomes.push(outcome(await post([a, b][index % 2].url, callTool(index, 'whoami'), { 'X-API-Key': A })));
    expect(outcomes).toEqual(['OK', 'OK', 'OK', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);
    const refused = envelopeOf(await post(b.url, callTool(9, 'whoami'), { 'X-API-Key': A }));
    expect(refused.error).toMatchObject({ retryable: true, retry_after_ms: expect.any(Number) });
    expect(refused.error.retry_after_ms).toBeGreaterThan(0);
    expect(refused.error.retry_after_ms).toBeLessThanOrEqual(60_000);
    expect(outcome(await post(b.url, callTool(10, 'whoami'), { 'X-API-Key': B }))).toBe('OK');
  });

  it('limits.maxConcurrentCallsPerTenant: a call running on A takes the slot B would give; its end frees it on B at once', async () => {
    const [a, b] = await pair({ limits: { maxConcurrentCallsPerTenant: 1 } });
    const slow = post(a.url, callTool(1, 'sleep', { ms: 1_500 }), { 'X-API-Key': A });
    await eventually(
      async () => outcome(await post(b.url, callTool(2, 'whoami'), { 'X-API-Key': A })) === 'RATE_LIMITED',
      1_000,
      'slot taken',
    );
    expect(outcome(await post(b.url, callTool(3, 'whoami'), { 'X-API-Key': B }))).toBe('OK');
    expect(outcome(await slow)).toBe('OK');
    expect(outcome(await post(b.url, callTool(4, 'whoami'), { 'X-API-Key': A }))).toBe('OK');
  });

  it('limits.maxConcurrentCallsPerTenant: the slots of an instance that cannot release them any more come back after the lease', async () => {
    // Lease = toolTimeoutMs (1 s) + 5 s grace. Instance A loses Redis for good mid-call (as if killed): its slot
    // is never released, and Redis alone gives it back.
    const [a, b] = await pair({ tools: { timeoutMs: 1_000 }, limits: { maxConcurrentCallsPerTenant: 1 } });
    const acquiredBy = Date.now();
    const running = post(a.url, callTool(1, 'sleep', { ms: 300 }), { 'X-API-Key': A });
    await eventually(
      async () => outcome(await post(b.url, callTool(2, 'whoami'), { 'X-API-Key': A })) === 'RATE_LIMITED',
      1_000,
      'slot taken',
    );
    await a.app.get<McpKeyValueStore>(MCP_STORE, { strict: false }).close!();
    await running;
    expect(outcome(await post(b.url, callTool(3, 'whoami'), { 'X-API-Key': A }))).toBe('RATE_LIMITED');
    await eventually(async () => outcome(await post(b.url, callTool(4, 'whoami'), { 'X-API-Key': A })) === 'OK', 10_000, 'lease expiry');
    // Not before the lease ran out.
    expect(Date.now() - acquiredBy).toBeGreaterThanOrEqual(1_000 + 5_000 - 200);
  });

  it('one Redis round trip admits a call (rate window and concurrency slot in one script); one more releases it', async () => {
    const [a] = await pair({ limits: { rateLimit: { limit: 100, windowMs: 60_000 }, maxConcurrentCallsPerTenant: 5 } });
    const observer = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await observer.connect();
    try {
      await post(a.url, callTool(1, 'whoami'), { 'X-API-Key': A }); // warm-up: nothing first-time in the measured call
      let answer: Awaited<ReturnType<typeof post>> | undefined;
      const ran = await monitorWhile(observer, async () => {
        answer = await post(a.url, callTool(2, 'whoami'), { 'X-API-Key': A });
      });
      expect(outcome(answer!)).toBe('OK');
      // The library sends its scripts as EVAL, never EVALSHA: an EVALSHA in the window is another client's timer
      // (seen once in CI), not a round trip of this call.
      const names = ran.fromClients.map(([name]) => name).filter((name) => name !== 'evalsha');
      // The admission: one EVAL touching the tenant's window and slot set; the release: one MULTI/ZREM/EXEC.
      expect(names.filter((name) => name === 'eval' || name === 'evalsha')).toHaveLength(1);
      expect(names.sort()).toEqual(['eval', 'exec', 'multi', 'zrem'].sort());
      const admission = ran.fromClients.find(([name]) => name === 'eval')!;
      expect(admission.slice(2, 5)).toEqual([
        '2',
        expect.stringMatching(/:rate:\{tenant-a\}$/),
        expect.stringMatching(/:calls:\{tenant-a\}$/),
      ]);
      expect(ran.inScripts.map(([name]) => name)).not.toContain('keys');
    } finally {
      observer.disconnect();
    }
  });

  it('limits.maxStreamsPerTenant: a stream open on A fills the cap on B (429); closing it frees the place on B', async () => {
    const [a, b] = await pair({ limits: { maxStreamsPerTenant: 1 } });
    const first = await openSse(`${a.base}/sse`, { 'X-API-Key': A });
    try {
      expect(first.status).toBe(200);
      const second = await openSse(`${b.base}/sse`, { 'X-API-Key': A });
      second.close();
      expect(second.status).toBe(429);
      const otherTenant = await openSse(`${b.base}/sse`, { 'X-API-Key': B });
      otherTenant.close();
      expect(otherTenant.status).toBe(200);
    } finally {
      first.close();
    }
    await eventually(
      async () => {
        const again = await openSse(`${b.base}/sse`, { 'X-API-Key': A });
        again.close();
        if (again.status !== 200) await sleep(50);
        return again.status === 200;
      },
      5_000,
      'stream place freed',
    );
  });
});
