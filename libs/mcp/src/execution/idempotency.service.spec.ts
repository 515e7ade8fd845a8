import { jest } from '@jest/globals';
import type { McpMessageBus } from '../core/message-bus.interface.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import { resolveMcpOptions, resolvePaths } from '../options/mcp-options.resolver.js';
import { leaseKey, McpInstanceLease } from '../sessions/mcp-instance-lease.service.js';
import { McpMemoryStore } from '../stores/memory.store.js';
import { storeKey } from '../stores/store-key.js';
import { McpTenantQuotas } from '../stores/tenant-quotas.js';
import { McpIdempotency } from './idempotency.service.js';

const RENEW_MS = 100;
const options = resolveMcpOptions(
  { name: 'idem', version: '1.0.0', redis: { url: 'redis://127.0.0.1:6379', instanceLease: { ttlMs: 300, renewMs: RENEW_MS } } },
  resolvePaths({}),
);

/** Only `crossesInstances` matters to the lease: true stands for a Redis bus, false for memory mode. */
const busThat = (crossesInstances: boolean) => ({ crossesInstances }) as McpMessageBus;

const success = (text: string): McpCallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: { status: 'success', data: { text } },
});

const CALL = { tenant: 't', tool: 'slow', key: 'key-0001', args: { city: 'Paris' }, waitMs: 5_000 };
const RECORD_KEY = storeKey('idem', CALL.tenant, CALL.tool, CALL.key);

/**
 * Instances are McpIdempotency services with a real McpInstanceLease each, on one shared memory store (as they
 * would share Redis). An instance "dies" when its lease is gone and its call never finishes.
 */
describe('McpIdempotency: a claim held by a dead instance', () => {
  let store: McpMemoryStore;
  const leases: McpInstanceLease[] = [];

  beforeEach(() => {
    store = new McpMemoryStore();
  });

  afterEach(async () => {
    for (const lease of leases.splice(0)) await lease.onApplicationShutdown();
  });

  async function instance(crossesInstances = true, resolved = options): Promise<{ idempotency: McpIdempotency; lease: McpInstanceLease }> {
    const lease = new McpInstanceLease(store, busThat(crossesInstances), resolved);
    await lease.onApplicationBootstrap();
    leases.push(lease);
    return { idempotency: new McpIdempotency(store, resolved, new McpTenantQuotas(store, resolved), lease), lease };
  }

  /** Starts a call on `holder` that never finishes, and resolves once it runs (its claim is stored). */
  async function hang(holder: McpIdempotency): Promise<void> {
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    void holder.run(CALL, () => {
      running();
      return new Promise<McpCallToolResult>(() => undefined);
    });
    await started;
  }

  /** With B's call running under the claim, a third call waits for B's result instead of running beside it. */
  async function expectAThirdCallToWaitFor(
    b: McpIdempotency,
    onB: Promise<McpCallToolResult>,
    finishOnB: (result: McpCallToolResult) => void,
  ): Promise<void> {
    let ranOnC = false;
    const onC = b.run(CALL, async () => {
      ranOnC = true;
      return success('C');
    });
    finishOnB(success('B'));
    expect(await onB).toEqual(success('B'));
    expect(await onC).toEqual(success('B'));
    expect(ranOnC).toBe(false);
  }

  /** The holder is killed: its lease is no longer renewed and expires (here: deleted at once). */
  const kill = (lease: McpInstanceLease) => lease.onApplicationShutdown();

  it('the running record names its holder; a retry on another instance takes over once the holder is dead, runs once, and is remembered', async () => {
    const a = await instance();
    const b = await instance();
    await hang(a.idempotency);
    expect(await store.get(RECORD_KEY)).toMatchObject({ state: 'running', holder: a.lease.id });
    await kill(a.lease);

    let runs = 0;
    const retried = await b.idempotency.run(CALL, async () => success(`run ${++runs} on B`));
    expect(retried).toEqual(success('run 1 on B'));
    expect(await store.get(RECORD_KEY)).toMatchObject({ state: 'done', result: success('run 1 on B') });
    // A later call with the key gets B's result without running again.
    expect(await b.idempotency.run(CALL, async () => success('again'))).toEqual(success('run 1 on B'));
    expect(runs).toBe(1);
  });

  it('a holder taken over while it ran on (lease lost, not dead) leaves the new holder its claim when it ends', async () => {
    for (const outcome of ['fails', 'succeeds'] as const) {
      await store.delete(RECORD_KEY);
      const a = await instance();
      const b = await instance();
      let endOnA!: () => void;
      const onA = a.idempotency.run(CALL, async () => {
        await new Promise<void>((resolve) => (endOnA = resolve));
        if (outcome === 'fails') throw new Error('A gave up');
        return success('late on A');
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      await kill(a.lease); // A's lease is gone, its call still runs
      let finishOnB!: (result: McpCallToolResult) => void;
      const onB = b.idempotency.run(CALL, () => new Promise<McpCallToolResult>((resolve) => (finishOnB = resolve)));
      await new Promise((resolve) => setTimeout(resolve, 2 * RENEW_MS));
      expect(await store.get(RECORD_KEY)).toMatchObject({ state: 'running', holder: b.lease.id });

      endOnA();
      await onA.catch(() => undefined);
      // B's claim stands: a third call waits for B instead of running beside it.
      expect(await store.get(RECORD_KEY)).toMatchObject({ state: 'running', holder: b.lease.id });
      await expectAThirdCallToWaitFor(b.idempotency, onB, finishOnB);
    }
  });

  it('a holder that fails just as another instance takes over deletes nothing but its own claim', async () => {
    const a = await instance();
    const b = await instance();
    let failOnA!: () => void;
    const onA = a.idempotency.run(
      CALL,
      () => new Promise<McpCallToolResult>((_, reject) => (failOnA = () => reject(new Error('A gave up')))),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    await kill(a.lease); // A runs on without its lease
    // If A's release reads the record, B takes the claim over right after that read, before A acts on it;
    // a release that reads nothing (atomic on its claim) leaves no such window, and B claims the key after it.
    const read = store.get.bind(store);
    let armed = true;
    let onB: Promise<McpCallToolResult> | undefined;
    let finishOnB!: (result: McpCallToolResult) => void;
    const takeOverOnB = async () => {
      armed = false;
      onB = b.idempotency.run(CALL, () => new Promise<McpCallToolResult>((resolve) => (finishOnB = resolve)));
      while ((await read<{ holder?: string }>(RECORD_KEY))?.holder !== b.lease.id) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    jest.spyOn(store, 'get').mockImplementation(async <T>(key: string): Promise<T | undefined> => {
      const value = await read<T>(key);
      if (armed && key === RECORD_KEY) await takeOverOnB();
      return value;
    });
    failOnA();
    await expect(onA).rejects.toThrow('A gave up');
    if (armed) await takeOverOnB();
    // Before: A deleted the record it had read as its own, B's claim with it, and a third call ran beside B.
    expect(await read(RECORD_KEY)).toMatchObject({ state: 'running', holder: b.lease.id });
    await expectAThirdCallToWaitFor(b.idempotency, onB!, finishOnB);
  });

  it('of several waiters on several instances exactly one takes over; the others get its result', async () => {
    const a = await instance();
    const waiters = await Promise.all([1, 2, 3, 4].map(() => instance()));
    await hang(a.idempotency);
    const runs: string[] = [];
    const answers = waiters.map(({ idempotency, lease }) =>
      idempotency.run(CALL, async () => {
        runs.push(lease.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return success(`ran on ${lease.id}`);
      }),
    );
    // The waiters are polling on A's live claim when A dies.
    await new Promise((resolve) => setTimeout(resolve, 3 * RENEW_MS));
    expect(runs).toEqual([]);
    await kill(a.lease);

    const results = await Promise.all(answers);
    expect(runs).toHaveLength(1);
    expect(results).toEqual(waiters.map(() => success(`ran on ${runs[0]}`)));
  });

  it('while the holder is alive a waiter does not take over, checks its lease about once per renewMs, and gets its result', async () => {
    const a = await instance();
    const b = await instance();
    let finish!: (result: McpCallToolResult) => void;
    const first = a.idempotency.run(CALL, () => new Promise<McpCallToolResult>((resolve) => (finish = resolve)));
    const checks = jest.spyOn(b.lease, 'isAlive');
    let ranOnB = false;
    const waiting = b.idempotency.run(CALL, async () => {
      ranOnB = true;
      return success('B');
    });
    const waitedMs = 10 * RENEW_MS;
    await new Promise((resolve) => setTimeout(resolve, waitedMs));
    finish(success('A'));

    expect(await waiting).toEqual(success('A'));
    expect(await first).toEqual(success('A'));
    expect(ranOnB).toBe(false);
    // Polled every 25 ms (about 40 reads); the lease only at the first read and then once per renewal.
    expect(checks.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(checks.mock.calls.length).toBeLessThanOrEqual(waitedMs / RENEW_MS + 2);
    expect(checks).toHaveBeenCalledWith(a.lease.id);
  });

  it("a takeover keeps the key's one place in idempotency.maxKeysPerTenant: counted once when kept, freed when the new run fails", async () => {
    const oneKey = resolveMcpOptions(
      {
        name: 'idem',
        version: '1.0.0',
        redis: { url: 'redis://127.0.0.1:6379', instanceLease: { ttlMs: 300, renewMs: RENEW_MS } },
        idempotency: { maxKeysPerTenant: 1 },
      },
      resolvePaths({}),
    );
    const quotaCode = (result: McpCallToolResult) => (result.structuredContent as { error?: { code?: string } }).error?.code;
    for (const outcome of ['kept', 'failed'] as const) {
      store = new McpMemoryStore();
      const a = await instance(true, oneKey);
      const b = await instance(true, oneKey);
      await hang(a.idempotency);
      await kill(a.lease);
      const taken = await b.idempotency.run(CALL, async () =>
        outcome === 'kept'
          ? success('B')
          : {
              content: [{ type: 'text', text: 'down' }],
              structuredContent: { status: 'error', error: { code: 'UNAVAILABLE' } },
              isError: true,
            },
      );
      const otherKey = { ...CALL, key: 'key-0002' };
      if (outcome === 'kept') {
        expect(taken).toEqual(success('B'));
        // The taken-over key holds the tenant's one place (once: its retry is answered, not refused) ...
        expect(await b.idempotency.run(CALL, async () => success('again'))).toEqual(success('B'));
        expect(quotaCode(await b.idempotency.run(otherKey, async () => success('other')))).toBe('QUOTA_EXCEEDED');
      } else {
        // ... or, when the new run fails, gives it back with the key: nothing of A's claim is left counted.
        expect((await store.get<{ state?: string }>(RECORD_KEY))?.state).not.toBe('running');
        expect(await b.idempotency.run(otherKey, async () => success('other'))).toEqual(success('other'));
      }
    }
  });

  it('memory mode: the record names no holder, as before', async () => {
    const alone = await instance(false);
    await hang(alone.idempotency);
    expect(await store.get(RECORD_KEY)).toEqual({ state: 'running', fingerprint: expect.any(String) });
    expect(await store.get(leaseKey(alone.lease.id))).toBeUndefined();
  });

  it('a running record without a holder (an older release) is waited on until the wait ends, never taken over', async () => {
    const older = await instance(false); // writes the record as a release without holders did
    const b = await instance();
    await hang(older.idempotency);
    let ranOnB = false;
    const answer = await b.idempotency.run({ ...CALL, waitMs: 4 * RENEW_MS }, async () => {
      ranOnB = true;
      return success('B');
    });
    expect(ranOnB).toBe(false);
    expect(answer.structuredContent).toMatchObject({ status: 'error', error: { code: 'TIMEOUT', retryable: true } });
  });
});
