import { jest } from '@jest/globals';
import { McpMemoryStore } from './memory.store.js';
import { McpQuotaExceededError } from '../core/errors/quota-exceeded.error.js';
import { storeKey } from './store-key.js';

/** A store on a fake clock; the sweep interval is long so only lazy expiry runs unless a test advances timers. */
function storeWithClock(maxKeys = 100, sweepIntervalMs = 60_000) {
  const clock = { now: 1_000_000 };
  const store = new McpMemoryStore(maxKeys, sweepIntervalMs, () => clock.now);
  return { store, clock };
}

describe('McpMemoryStore', () => {
  const stores: McpMemoryStore[] = [];
  const make = (maxKeys?: number, sweepIntervalMs?: number) => {
    const made = storeWithClock(maxKeys, sweepIntervalMs);
    stores.push(made.store);
    return made;
  };

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  describe('get / set / delete', () => {
    it('returns what was set and undefined for unknown keys', async () => {
      const { store } = make();
      await store.set('a', { n: 1 }, 1000);
      expect(await store.get('a')).toEqual({ n: 1 });
      expect(await store.get('missing')).toBeUndefined();
    });

    it('overwrites a value', async () => {
      const { store } = make();
      await store.set('a', 1, 1000);
      await store.set('a', 2, 1000);
      expect(await store.get('a')).toBe(2);
    });

    it('delete removes the key; deleting an unknown key is fine', async () => {
      const { store } = make();
      await store.set('a', 1, 1000);
      await store.delete('a');
      await store.delete('never');
      expect(await store.get('a')).toBeUndefined();
    });
  });

  describe('TTL', () => {
    it('keeps a value until its ttl elapses, then drops it', async () => {
      const { store, clock } = make();
      await store.set('a', 'v', 1000);
      clock.now += 999;
      expect(await store.get('a')).toBe('v');
      clock.now += 1;
      expect(await store.get('a')).toBeUndefined();
    });

    it('set refreshes the ttl', async () => {
      const { store, clock } = make();
      await store.set('a', 'v1', 1000);
      clock.now += 800;
      await store.set('a', 'v2', 1000);
      clock.now += 800;
      expect(await store.get('a')).toBe('v2');
      clock.now += 200;
      expect(await store.get('a')).toBeUndefined();
    });

    it('an expired key does not come back when the clock goes backwards', async () => {
      const { store, clock } = make();
      await store.set('a', 'v', 10);
      clock.now += 10;
      expect(await store.get('a')).toBeUndefined();
      clock.now -= 10;
      expect(await store.get('a')).toBeUndefined();
    });

    it('the periodic sweep removes expired entries (so they no longer count toward maxKeys)', async () => {
      jest.useFakeTimers();
      try {
        const clock = { now: 0 };
        const store = new McpMemoryStore(2, 100, () => clock.now);
        stores.push(store);
        await store.set('long', 'l', 10_000);
        await store.set('short', 's', 10);
        clock.now = 50;
        jest.advanceTimersByTime(100); // sweep: 'short' is gone
        await store.set('third', 't', 10_000); // 2 live keys: nothing evicted (without the sweep, 'long' would go)
        expect(await store.get('long')).toBe('l');
        expect(await store.get('third')).toBe('t');
        clock.now = 0; // had the sweep not removed it, 'short' would be live again
        expect(await store.get('short')).toBeUndefined();
      } finally {
        jest.useRealTimers();
      }
    });
  });

  describe('bounded key count (refuses, never evicts)', () => {
    it("a flood of one tenant's new keys beyond maxKeys evicts none of another tenant's keys; the flood is refused with QUOTA_EXCEEDED", async () => {
      const { store } = make(100);
      const otherTenant = [
        storeKey('session', 'idle-session-of-b'),
        storeKey('job', 'tenant-b', 'job_1'),
        storeKey('idem', 'tenant-b', 'create_weather_alert', 'k1'),
      ];
      for (const key of otherTenant) await store.set(key, { owner: 'tenant-b' }, 60_000);
      const refusals: unknown[] = [];
      for (let index = 0; index < 200; index++) {
        await store
          .set(storeKey('idem', 'tenant-a', 'create_weather_alert', `flood-${index}`), { owner: 'tenant-a' }, 60_000)
          .catch((error: unknown) => refusals.push(error));
      }
      for (const key of otherTenant) expect(await store.get(key)).toEqual({ owner: 'tenant-b' });
      expect(refusals).toHaveLength(103);
      expect(refusals[0]).toBeInstanceOf(McpQuotaExceededError);
      expect((refusals[0] as McpQuotaExceededError).toErrorBody()).toMatchObject({ code: 'QUOTA_EXCEEDED', retryable: true });
    });

    it('at the cap, existing keys can still be rewritten; a deleted or expired key makes room', async () => {
      const { store, clock } = make(2);
      await store.set('a', 1, 1000);
      await store.set('b', 2, 100);
      await store.set('a', 10, 1000);
      await expect(store.set('c', 3, 1000)).rejects.toThrow(McpQuotaExceededError);
      await store.delete('a');
      await store.set('c', 3, 10_000);
      clock.now += 1_000; // 'b' has expired: the cap counts live keys only (rescanned at most once a second)
      await store.set('d', 4, 1000);
      expect(await store.get('c')).toBe(3);
      expect(await store.get('d')).toBe(4);
    });

    it('append and setIfAbsent count toward the bound too', async () => {
      const { store } = make(2);
      await store.append('list', 'x', 10, 1000);
      await store.setIfAbsent('s', 1, 1000);
      await expect(store.set('t', 2, 1000)).rejects.toThrow(McpQuotaExceededError);
      await expect(store.append('list2', 'y', 10, 1000)).rejects.toThrow(McpQuotaExceededError);
      expect(await store.list('list')).toEqual(['x']);
      expect(await store.get('s')).toBe(1);
    });
  });

  describe('slot sets', () => {
    it('a full set is swept whole, so a short-lived member behind a long-lived one stops counting when it expires', async () => {
      const { store, clock } = make();
      const set = [{ key: 'quota', limit: 2 }];
      expect(await store.reserveSlot('long', set, 10_000)).toBe(-1);
      expect(await store.reserveSlot('short', set, 100)).toBe(-1);
      clock.now += 100;
      expect(await store.reserveSlot('new', set, 10_000)).toBe(-1);
      expect(await store.reserveSlot('one-too-many', set, 10_000)).toBe(0);
    });
  });

  describe('setIfAbsent', () => {
    it('stores only the first time and reports which call stored', async () => {
      const { store } = make();
      expect(await store.setIfAbsent('k', 'first', 1000)).toBe(true);
      expect(await store.setIfAbsent('k', 'second', 1000)).toBe(false);
      expect(await store.get('k')).toBe('first');
    });

    it('exactly one of many concurrent calls wins', async () => {
      const { store } = make();
      const results = await Promise.all(Array.from({ length: 20 }, (_, index) => store.setIfAbsent('k', index, 1000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.get('k')).toBe(results.indexOf(true));
    });

    it('succeeds again once the previous value has expired', async () => {
      const { store, clock } = make();
      expect(await store.setIfAbsent('k', 'old', 100)).toBe(true);
      clock.now += 100;
      expect(await store.setIfAbsent('k', 'new', 100)).toBe(true);
      expect(await store.get('k')).toBe('new');
    });

    it('does not overwrite a value written by set', async () => {
      const { store } = make();
      await store.set('k', 'set', 1000);
      expect(await store.setIfAbsent('k', 'other', 1000)).toBe(false);
      expect(await store.get('k')).toBe('set');
    });
  });

  describe('append / list', () => {
    it('appends in order', async () => {
      const { store } = make();
      await store.append('l', 1, 10, 1000);
      await store.append('l', 2, 10, 1000);
      await store.append('l', 3, 10, 1000);
      expect(await store.list('l')).toEqual([1, 2, 3]);
    });

    it('keeps at most maxLength items, dropping the oldest', async () => {
      const { store } = make();
      for (let index = 1; index <= 5; index++) await store.append('l', index, 3, 1000);
      expect(await store.list('l')).toEqual([3, 4, 5]);
    });

    it('list of an unknown key is empty', async () => {
      const { store } = make();
      expect(await store.list('none')).toEqual([]);
    });

    it('list returns a copy', async () => {
      const { store } = make();
      await store.append('l', 'a', 10, 1000);
      const copy = await store.list<string>('l');
      copy.push('mutated');
      expect(await store.list('l')).toEqual(['a']);
    });

    it('append refreshes the ttl of the list', async () => {
      const { store, clock } = make();
      await store.append('l', 1, 10, 100);
      clock.now += 90;
      await store.append('l', 2, 10, 100);
      clock.now += 90;
      expect(await store.list('l')).toEqual([1, 2]);
      clock.now += 10;
      expect(await store.list('l')).toEqual([]);
    });

    it('a byte-bounded append measures only the item it appends: the list is never serialised again', async () => {
      const { store } = make();
      for (let index = 0; index < 500; index++) await store.append('l', { n: index }, 1_000, 1000, { maxBytes: 4_000 });
      const stringify = jest.spyOn(JSON, 'stringify');
      const byteLength = jest.spyOn(Buffer, 'byteLength');
      try {
        await store.append('l', { n: 500 }, 1_000, 1000, { maxBytes: 4_000 });
        expect(stringify).toHaveBeenCalledTimes(1);
        expect(byteLength).toHaveBeenCalledTimes(1);
      } finally {
        stringify.mockRestore();
        byteLength.mockRestore();
      }
      // {"n":100} to {"n":500} take 401 × 9 bytes, {"n":52} to {"n":99} 48 × 8: 3 993 in all; {"n":51} would pass 4 000.
      const kept = await store.list<{ n: number }>('l');
      expect([kept[0], kept.at(-1), kept.length]).toEqual([{ n: 52 }, { n: 500 }, 449]);
    });

    it('appending to an expired list starts a new one', async () => {
      const { store, clock } = make();
      await store.append('l', 'old', 10, 100);
      clock.now += 100;
      await store.append('l', 'new', 10, 100);
      expect(await store.list('l')).toEqual(['new']);
    });
  });

  describe('close', () => {
    it('clears the entries and stops the sweeper', async () => {
      const clearSpy = jest.spyOn(globalThis, 'clearInterval');
      try {
        const { store } = make();
        await store.set('a', 1, 1000);
        await store.close();
        expect(await store.get('a')).toBeUndefined();
        expect(clearSpy).toHaveBeenCalledTimes(1);
      } finally {
        clearSpy.mockRestore();
      }
    });

    it('does not keep the process alive (the sweeper is unref-ed)', () => {
      const setSpy = jest.spyOn(globalThis, 'setInterval');
      try {
        const { store } = make(10, 1234);
        expect(setSpy).toHaveBeenCalledWith(expect.any(Function), 1234);
        const timer = setSpy.mock.results[0].value as NodeJS.Timeout;
        expect(timer.hasRef()).toBe(false);
        expect(store).toBeInstanceOf(McpMemoryStore);
      } finally {
        setSpy.mockRestore();
      }
    });
  });
});
