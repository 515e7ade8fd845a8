import { McpMemoryStore } from '../stores/memory.store.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { CALL_LEASE_GRACE_MS, McpTenantLimiter, type CallPermit } from './tenant-limiter.js';

/** A limiter over a memory store whose clock the test moves. */
function limiterWith(limits: Partial<McpResolvedOptions['limits']>) {
  let now = 1_000_000;
  const store = new McpMemoryStore(100_000, 60_000, () => now);
  const options = { tools: { timeoutMs: 30_000 }, limits: { maxConcurrentCallsPerTenant: 100, ...limits } } as McpResolvedOptions;
  const limiter = new McpTenantLimiter(options, store);
  return { limiter, store, advance: (ms: number) => (now += ms) };
}

function granted(permit: CallPermit): Extract<CallPermit, { granted: true }> {
  if (!permit.granted) throw new Error(`refused: ${permit.reason}`);
  return permit;
}

describe('McpTenantLimiter', () => {
  it('caps concurrent calls per tenant; a released slot is free at once; other tenants are not affected', async () => {
    const { limiter, store } = limiterWith({ maxConcurrentCallsPerTenant: 2 });
    const first = granted(await limiter.acquire('acme'));
    granted(await limiter.acquire('acme'));
    expect(await limiter.acquire('acme')).toEqual({ granted: false, retryAfterMs: 100, reason: 'more than 2 calls at once' });
    granted(await limiter.acquire('globex'));
    await first.release();
    await first.release(); // twice frees one slot only
    granted(await limiter.acquire('acme'));
    expect((await limiter.acquire('acme')).granted).toBe(false);
    await store.close();
  });

  it('a slot never released (its instance died) comes back after the call timeout plus the grace', async () => {
    const { limiter, store, advance } = limiterWith({ maxConcurrentCallsPerTenant: 1 });
    granted(await limiter.acquire('acme', 1_000));
    advance(1_000 + CALL_LEASE_GRACE_MS - 1);
    expect((await limiter.acquire('acme')).granted).toBe(false);
    advance(1);
    granted(await limiter.acquire('acme'));
    await store.close();
  });

  it('rate limit: a fixed window from the first call; a refusal says how long until the window ends', async () => {
    const { limiter, store, advance } = limiterWith({ rateLimit: { limit: 2, windowMs: 10_000 } });
    await granted(await limiter.acquire('acme')).release();
    advance(4_000);
    await granted(await limiter.acquire('acme')).release();
    expect(await limiter.acquire('acme')).toEqual({ granted: false, retryAfterMs: 6_000, reason: 'more than 2 calls in 10000 ms' });
    granted(await limiter.acquire('globex'));
    advance(6_000);
    granted(await limiter.acquire('acme'));
    await store.close();
  });

  it('a call refused by the concurrency cap does not use up the rate window', async () => {
    const { limiter, store } = limiterWith({ maxConcurrentCallsPerTenant: 1, rateLimit: { limit: 2, windowMs: 60_000 } });
    const running = granted(await limiter.acquire('acme'));
    expect(await limiter.acquire('acme')).toMatchObject({ granted: false, reason: 'more than 1 calls at once' });
    await running.release();
    granted(await limiter.acquire('acme'));
    await store.close();
  });
});
