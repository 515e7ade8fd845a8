import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { invokeTool } from './scaling-support.js';
import { ensureBuilt } from '../kit/build.js';
import { StdioServerProcess } from '../kit/stdio.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/idempotency-takeover.server.mjs');
/** The tool's timeout: how long a retry waits on a claim, and (+5 s) how long the claim lives. */
const TOOL_TIMEOUT_MS = 20_000;
/** How long one booking takes: A is killed in the middle of it. */
const BOOKING_DELAY_MS = 2_000;

/** One spawned fixture server on the shared Redis, with the library's default lease (renewed 1.5 s, TTL 5 s). */
async function startInstance(name: string, redisUrl: string, bookingMs = BOOKING_DELAY_MS) {
  const port = await freePort();
  const server = new StdioServerProcess(FIXTURE, [], {
    REDIS_URL: redisUrl,
    PORT: String(port),
    INSTANCE: name,
    BOOKING_DELAY_MS: String(bookingMs),
    TOOL_TIMEOUT_MS: String(TOOL_TIMEOUT_MS),
  });
  await server.waitForStderr(/MCP endpoint on/, 20_000);
  return { name, server, url: `http://127.0.0.1:${port}/mcp` };
}

/**
 * Three processes on one Redis; A is killed (SIGKILL) while it runs a call with an idempotency key. Retries with
 * the same key and arguments on B and C must not wait out A's claim (tool timeout + 5 s): once A's lease has
 * expired one of them takes the claim over and runs the call, the other gets its result, and the effect happens
 * once. Before the takeover both answered TIMEOUT after the tool timeout.
 */
describe('an idempotency claim held by an instance that was killed', () => {
  let redis: RedisServerHandle;
  let effects: Redis;
  const servers: StdioServerProcess[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    redis = await startRedisServer();
    effects = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await effects.connect();
  }, 200_000);

  afterAll(async () => {
    effects?.disconnect();
    for (const server of servers) {
      server.kill();
      await server.waitForExit(5_000);
    }
    await redis?.stop();
  });

  it('kill -9 of A mid-call: a retry on B and one on C get one success, the effect ran once, well before the claim expired', async () => {
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => startInstance(name, redis.url)));
    servers.push(a.server, b.server, c.server);
    const args = { slot: '2026-12-01T10:00', idempotency_key: `takeover-${Date.now()}` };

    const lost = invokeTool(a.url, 'book_slot', args).catch((error: unknown) => error);
    await a.server.waitForStderr(/fixture A: book_slot started/, 10_000);
    a.server.signal('SIGKILL');
    expect(await a.server.waitForExit(5_000)).toMatchObject({ signal: 'SIGKILL', timedOut: false });
    const killedAt = Date.now();
    await lost;

    const [onB, onC] = await Promise.all([invokeTool(b.url, 'book_slot', args), invokeTool(c.url, 'book_slot', args)]);
    const answeredMs = Date.now() - killedAt;
    process.stdout.write(
      `idempotency takeover after kill -9 (lease TTL 5 s, renew 1.5 s, booking ${BOOKING_DELAY_MS} ms): answered after ${answeredMs} ms\n`,
    );

    expect(onB.envelope).toMatchObject({ status: 'success', data: { slot: args.slot, booked_by: expect.stringMatching(/^[BC]$/) } });
    expect(onC.envelope).toEqual(onB.envelope);
    const ranOn = await effects.lrange(`effects:${args.idempotency_key}`, 0, -1);
    expect(ranOn).toEqual([onB.envelope.data.booked_by]);
    // A behaviour bound, not a speed goal: without the takeover the retries wait out the tool timeout and fail.
    expect(answeredMs).toBeLessThan(TOOL_TIMEOUT_MS);

    // The key now answers from the record on any instance, without running again.
    expect((await invokeTool(b.url, 'book_slot', args)).envelope).toEqual(onB.envelope);
    expect(await effects.lrange(`effects:${args.idempotency_key}`, 0, -1)).toEqual(ranOn);
  }, 90_000);

  it('kill -9 of A mid-call: other arguments are IDEMPOTENCY_KEY_REUSED (no takeover); 20 retries over B and C run it once', async () => {
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => startInstance(name, redis.url)));
    servers.push(a.server, b.server, c.server);
    const args = { slot: '2026-12-02T10:00', idempotency_key: `storm-${Date.now()}` };
    const lost = invokeTool(a.url, 'book_slot', args).catch((error: unknown) => error);
    await a.server.waitForStderr(/fixture A: book_slot started/, 10_000);
    a.server.signal('SIGKILL');
    await a.server.waitForExit(5_000);
    await lost;

    // A's dead claim still stands (its lease has not expired yet, and whether it has does not matter here).
    const reused = await invokeTool(b.url, 'book_slot', { ...args, slot: '2026-12-02T11:00' });
    expect(reused.envelope).toMatchObject({ status: 'error', error: { code: 'IDEMPOTENCY_KEY_REUSED', retryable: false } });
    const [claimKey] = await effects.keys(`mcp:idem:*${args.idempotency_key}`);
    expect(JSON.parse((await effects.get(claimKey))!)).toMatchObject({ state: 'running' });

    const retries = await Promise.all(Array.from({ length: 20 }, (_, index) => invokeTool((index % 2 ? b : c).url, 'book_slot', args)));
    const ranOn = await effects.lrange(`effects:${args.idempotency_key}`, 0, -1);
    expect(ranOn).toHaveLength(1);
    for (const retry of retries) expect(retry.envelope).toEqual({ status: 'success', data: { slot: args.slot, booked_by: ranOn[0] } });
    // Other arguments stay refused once the result is kept.
    expect((await invokeTool(c.url, 'book_slot', { ...args, slot: 'other' })).envelope).toMatchObject({
      error: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
  }, 90_000);

  it('Redis frozen for 1 s while B runs the call: no retry takes over a holder whose lease is still valid', async () => {
    const [b, c] = await Promise.all(['B', 'C'].map((name) => startInstance(name, redis.url)));
    servers.push(b.server, c.server);
    const args = { slot: '2026-12-03T10:00', idempotency_key: `frozen-${Date.now()}` };
    const first = invokeTool(b.url, 'book_slot', args);
    await b.server.waitForStderr(/fixture B: book_slot started/, 10_000);
    const retries = Array.from({ length: 5 }, () => invokeTool(c.url, 'book_slot', args));
    process.kill(redis.pid, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    process.kill(redis.pid, 'SIGCONT');

    const answers = await Promise.all([first, ...retries]);
    expect(await effects.lrange(`effects:${args.idempotency_key}`, 0, -1)).toEqual(['B']);
    for (const answer of answers) expect(answer.envelope).toEqual({ status: 'success', data: { slot: args.slot, booked_by: 'B' } });
  }, 90_000);

  // Redis expires B's lease while frozen, but B's renewals sent meanwhile wait in its socket and run first when Redis
  // resumes, before any retry sent after that can read the lease.
  it('Redis frozen for longer than the lease TTL while B runs the call: retries sent as it comes back do not take over', async () => {
    const [b, c] = await Promise.all(['B', 'C'].map((name) => startInstance(name, redis.url, 10_000)));
    servers.push(b.server, c.server);
    const args = { slot: '2026-12-04T10:00', idempotency_key: `frozen-long-${Date.now()}` };
    const first = invokeTool(b.url, 'book_slot', args);
    await b.server.waitForStderr(/fixture B: book_slot started/, 10_000);
    process.kill(redis.pid, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    process.kill(redis.pid, 'SIGCONT');
    // Retries sent as Redis comes back: the first thing they read is B's lease.
    const retries = Array.from({ length: 5 }, () => invokeTool(c.url, 'book_slot', args));

    const answers = await Promise.all([first, ...retries]);
    expect(await effects.lrange(`effects:${args.idempotency_key}`, 0, -1)).toEqual(['B']);
    for (const answer of answers) expect(answer.envelope).toMatchObject({ status: 'success', data: { slot: args.slot } });
  }, 90_000);
});
