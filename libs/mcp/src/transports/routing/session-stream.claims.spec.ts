import type { McpMessageBus } from '../../core/message-bus.interface.js';
import { resolveMcpOptions, resolvePaths } from '../../options/mcp-options.resolver.js';
import { McpInstanceLease } from '../../sessions/mcp-instance-lease.service.js';
import { McpMemoryStore } from '../../stores/memory.store.js';
import { McpSessionStreamClaims } from './session-stream.claims.js';

const KEEP_ALIVE_MS = 1_000;
/** Instance leases far longer than any claim here: both instances stay alive, only claims expire. */
const options = resolveMcpOptions(
  {
    name: 'claims',
    version: '1.0.0',
    http: { streams: { keepAliveMs: KEEP_ALIVE_MS } },
    redis: { url: 'redis://127.0.0.1:6379', instanceLease: { ttlMs: 600_000, renewMs: 60_000 } },
  },
  resolvePaths({}),
);
/** A bus that crosses instances, as Redis does: the leases are written and checked. */
const sharedBus = { crossesInstances: true } as McpMessageBus;

describe('McpSessionStreamClaims (memory store, controlled clock)', () => {
  let now: number;
  let store: McpMemoryStore;
  let leases: McpInstanceLease[];
  let a: McpSessionStreamClaims;
  let b: McpSessionStreamClaims;

  beforeEach(async () => {
    now = 1_000_000;
    store = new McpMemoryStore(100_000, 30_000, () => now);
    leases = [new McpInstanceLease(store, sharedBus, options), new McpInstanceLease(store, sharedBus, options)];
    for (const lease of leases) await lease.onApplicationBootstrap();
    [a, b] = leases.map((lease) => new McpSessionStreamClaims(store, lease, options.http.streams.keepAliveMs));
  });

  afterEach(async () => {
    for (const lease of leases) await lease.onApplicationShutdown();
    await store.close();
  });

  it('a claim not renewed (its release failed) blocks another live instance for three keep-alive intervals, not sessions.idleTtlMs', async () => {
    expect(a.ttlMs).toBe(3 * KEEP_ALIVE_MS);
    expect(await a.claim('s1')).toBe(true);
    now += 3 * KEEP_ALIVE_MS - 1;
    expect(await b.claim('s1')).toBe(false);
    now += 1;
    expect(await b.claim('s1')).toBe(true);
    expect(3 * KEEP_ALIVE_MS).toBeLessThan(options.sessions.idleTtlMs);
  });

  it('renewed every keep-alive interval, the claim holds while the stream is open', async () => {
    expect(a.renewMs).toBe(KEEP_ALIVE_MS);
    expect(await a.claim('s1')).toBe(true);
    for (let interval = 0; interval < 10; interval++) {
      now += KEEP_ALIVE_MS;
      await a.refresh('s1');
      expect(await b.claim('s1')).toBe(false);
    }
    now += 3 * KEEP_ALIVE_MS;
    expect(await b.claim('s1')).toBe(true);
  });

  it('a leftover claim naming this instance is taken back at once by its next GET', async () => {
    expect(await a.claim('s1')).toBe(true);
    expect(await a.claim('s1')).toBe(true);
    expect(await b.claim('s1')).toBe(false);
  });

  it('a released claim frees the session at once; releasing one another instance holds leaves it alone', async () => {
    expect(await a.claim('s1')).toBe(true);
    await b.release('s1');
    expect(await b.claim('s1')).toBe(false);
    await a.release('s1');
    expect(await b.claim('s1')).toBe(true);
  });

  it('a claim that lapsed while renewals failed is taken again by the next renewal, unless another instance took it', async () => {
    expect(await a.claim('s1')).toBe(true);
    now += 3 * KEEP_ALIVE_MS;
    await a.refresh('s1');
    expect(await b.claim('s1')).toBe(false);

    expect(await a.claim('s2')).toBe(true);
    now += 3 * KEEP_ALIVE_MS;
    expect(await b.claim('s2')).toBe(true);
    expect(await a.refresh('s2')).toBe(false); // B's now: A's stream must end
    expect(await a.claim('s2')).toBe(false);
    expect(await b.refresh('s2')).toBe(true);
  });
});
