import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { McpKeyValueStore } from '../../libs/mcp/src/stores/key-value.store.js';
import { eventually } from './eventually.js';

export { describeBusContract, type BusFactory } from './bus-contract.js';
export { eventually } from './eventually.js';

/** A fresh, empty store and how to dispose of it. */
export type StoreFactory = () => Promise<{ store: McpKeyValueStore; cleanup: () => Promise<void> }>;

const LONG_TTL = 60_000;
const SHORT_TTL = 100;

/**
 * The behaviour every `McpKeyValueStore` must have, run against each implementation. Timing tests compare
 * with a marker key written just after the key under test: once the marker has expired, the key's old TTL
 * has certainly run out, so no test depends on how fast the machine is.
 */
export function describeStoreContract(name: string, createStore: StoreFactory): void {
  describe(`${name} (McpKeyValueStore contract)`, () => {
    let store: McpKeyValueStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await createStore());
    });

    afterEach(async () => {
      await cleanup();
    });

    /** Writes a marker with `ttlMs` and waits until it has expired. */
    async function waitPast(ttlMs: number): Promise<void> {
      await store.set('marker', true, ttlMs);
      await eventually(async () => (await store.get('marker')) === undefined, 5_000, 'marker expiry');
    }

    describe('get / set / delete', () => {
      it('returns what was set, and undefined for an unknown key', async () => {
        await store.set('a', { n: 1 }, LONG_TTL);
        expect(await store.get('a')).toEqual({ n: 1 });
        expect(await store.get('missing')).toBeUndefined();
      });

      it('overwrites a value, and set replaces a list or a counter', async () => {
        await store.set('a', 1, LONG_TTL);
        await store.set('a', 2, LONG_TTL);
        expect(await store.get('a')).toBe(2);
        await store.append('l', 'x', 10, LONG_TTL);
        await store.set('l', 'plain', LONG_TTL);
        expect(await store.get('l')).toBe('plain');
      });

      it('keeps keys apart', async () => {
        await store.set('a', 'A', LONG_TTL);
        await store.set('b', 'B', LONG_TTL);
        expect([await store.get('a'), await store.get('b')]).toEqual(['A', 'B']);
      });

      it('delete removes values, lists and counters; deleting an unknown key is fine', async () => {
        await store.set('v', 1, LONG_TTL);
        await store.append('l', 1, 10, LONG_TTL);
        await store.increment('c', LONG_TTL);
        for (const key of ['v', 'l', 'c', 'never']) await store.delete(key);
        expect(await store.get('v')).toBeUndefined();
        expect(await store.list('l')).toEqual([]);
        expect(await store.increment('c', LONG_TTL)).toBe(1);
      });

      it('stores falsy values (0, false, "", null) as values, not as absence', async () => {
        for (const [index, value] of [0, false, '', null].entries()) {
          await store.set(`k${index}`, value, LONG_TTL);
          expect(await store.get(`k${index}`)).toBe(value);
        }
      });
    });

    describe('JSON round-trip', () => {
      it('returns nested values intact', async () => {
        const value = { a: [1, { b: null, c: [true, false] }], s: 'ünïcødé ✓ "quoted" \\ \n', n: -1.5, big: 2 ** 52, empty: {}, none: [] };
        await store.set('nested', value, LONG_TTL);
        expect(await store.get('nested')).toEqual(value);
      });

      it('changes values the way JSON does (Date to string, undefined members dropped), on every store alike', async () => {
        await store.set('k', { at: new Date('2025-01-02T03:04:05.000Z'), gone: undefined, kept: 1 }, LONG_TTL);
        const read = await store.get<Record<string, unknown>>('k');
        expect(read).toEqual({ at: '2025-01-02T03:04:05.000Z', kept: 1 });
        expect(read).not.toHaveProperty('gone');
      });

      it('returns copies: changing what was written or read changes nothing stored', async () => {
        const written = { list: [1] };
        await store.set('k', written, LONG_TTL);
        written.list.push(2);
        const read = await store.get<{ list: number[] }>('k');
        read!.list.push(3);
        expect(await store.get('k')).toEqual({ list: [1] });
      });

      it('refuses what JSON cannot hold, and TTLs that are not positive whole milliseconds', async () => {
        await expect(store.set('k', undefined, LONG_TTL)).rejects.toThrow(TypeError);
        await expect(store.set('k', 1, 0)).rejects.toThrow(RangeError);
        await expect(store.set('k', 1, 1.5)).rejects.toThrow(RangeError);
        await expect(store.append('k', 1, 0, LONG_TTL)).rejects.toThrow(RangeError);
        expect(await store.get('k')).toBeUndefined();
      });
    });

    describe('TTL', () => {
      it('drops a value once its ttl has elapsed, and only that value', async () => {
        await store.set('short', 'v', SHORT_TTL);
        await store.set('long', 'v', LONG_TTL);
        await eventually(async () => (await store.get('short')) === undefined, 5_000, 'expiry');
        expect(await store.get('long')).toBe('v');
      });

      it('set refreshes the ttl', async () => {
        await store.set('k', 'v1', SHORT_TTL);
        await store.set('k', 'v2', LONG_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.get('k')).toBe('v2');
      });

      it('an expired key is absent for setIfAbsent and compareAndSet', async () => {
        await store.set('k', 'old', SHORT_TTL);
        await store.set('c', 'old', SHORT_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.setIfAbsent('k', 'new', LONG_TTL)).toBe(true);
        expect(await store.compareAndSet('c', 'old', 'new', LONG_TTL)).toBe(false);
        expect(await store.compareAndSet('c', undefined, 'new', LONG_TTL)).toBe(true);
        expect([await store.get('k'), await store.get('c')]).toEqual(['new', 'new']);
      });

      it('compareAndSet and setIfAbsent write with the ttl given', async () => {
        await store.compareAndSet('c', undefined, 1, SHORT_TTL);
        await store.setIfAbsent('s', 1, SHORT_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.get('c')).toBeUndefined();
        expect(await store.get('s')).toBeUndefined();
      });
    });

    describe('setIfAbsent', () => {
      it('stores only the first time and reports which call stored', async () => {
        expect(await store.setIfAbsent('k', 'first', LONG_TTL)).toBe(true);
        expect(await store.setIfAbsent('k', 'second', LONG_TTL)).toBe(false);
        expect(await store.get('k')).toBe('first');
      });

      it('exactly one of 50 concurrent callers wins, and its value is stored', async () => {
        const results = await Promise.all(Array.from({ length: 50 }, (_, index) => store.setIfAbsent('k', { caller: index }, LONG_TTL)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.get('k')).toEqual({ caller: results.indexOf(true) });
      });

      it('does not overwrite a value written by set', async () => {
        await store.set('k', 'set', LONG_TTL);
        expect(await store.setIfAbsent('k', 'other', LONG_TTL)).toBe(false);
        expect(await store.get('k')).toBe('set');
      });
    });

    describe('compareAndSet', () => {
      it('with expected undefined, writes only when the key is absent', async () => {
        expect(await store.compareAndSet('k', undefined, 'first', LONG_TTL)).toBe(true);
        expect(await store.compareAndSet('k', undefined, 'second', LONG_TTL)).toBe(false);
        expect(await store.get('k')).toBe('first');
      });

      it('writes when the value equals expected (compared as JSON), and not otherwise', async () => {
        const pending = { state: 'pending', attempts: [1, 2], owner: { id: 'a' } };
        await store.set('job', pending, LONG_TTL);
        const read = await store.get<typeof pending>('job');
        expect(await store.compareAndSet('job', read, { ...read!, state: 'running' }, LONG_TTL)).toBe(true);
        expect(await store.compareAndSet('job', pending, { ...pending, state: 'done' }, LONG_TTL)).toBe(false);
        expect(await store.get('job')).toEqual({ ...pending, state: 'running' });
      });

      it('a present expected value does not match an absent key', async () => {
        expect(await store.compareAndSet('k', 'x', 'y', LONG_TTL)).toBe(false);
        expect(await store.get('k')).toBeUndefined();
      });

      it('of 50 concurrent callers that read the same value, exactly one wins', async () => {
        await store.set('k', { version: 0 }, LONG_TTL);
        const expected = await store.get('k');
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, index) => store.compareAndSet('k', expected, { version: 1, by: index }, LONG_TTL)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.get('k')).toEqual({ version: 1, by: results.indexOf(true) });
      });
    });

    describe('deleteIfEquals', () => {
      it('deletes only while the value equals expected (compared as JSON)', async () => {
        await store.set('claim', { instance: 'a' }, LONG_TTL);
        expect(await store.deleteIfEquals('claim', { instance: 'b' })).toBe(false);
        expect(await store.get('claim')).toEqual({ instance: 'a' });
        expect(await store.deleteIfEquals('claim', await store.get('claim'))).toBe(true);
        expect(await store.get('claim')).toBeUndefined();
        expect(await store.deleteIfEquals('claim', { instance: 'a' })).toBe(false); // absent
      });

      it('an expired value is absent; of 20 concurrent callers exactly one deletes', async () => {
        await store.set('k', 'old', SHORT_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.deleteIfEquals('k', 'old')).toBe(false);
        await store.set('k', { version: 1 }, LONG_TTL);
        const results = await Promise.all(Array.from({ length: 20 }, () => store.deleteIfEquals('k', { version: 1 })));
        expect(results.filter(Boolean)).toHaveLength(1);
        await store.set('k', 'kept', LONG_TTL);
        expect(await store.deleteIfEquals('k', { version: 1 })).toBe(false);
        expect(await store.get('k')).toBe('kept');
      });
    });

    describe('increment', () => {
      it('counts from 1', async () => {
        expect(await store.increment('c', LONG_TTL)).toBe(1);
        expect(await store.increment('c', LONG_TTL)).toBe(2);
        expect(await store.increment('c', LONG_TTL)).toBe(3);
        expect(await store.get('c')).toBe(3);
      });

      it('50 concurrent increments each get a different number, 1 to 50', async () => {
        const values = await Promise.all(Array.from({ length: 50 }, () => store.increment('c', LONG_TTL)));
        expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
      });

      it('continues from an integer written by set, and rejects on anything else', async () => {
        await store.set('n', 41, LONG_TTL);
        expect(await store.increment('n', LONG_TTL)).toBe(42);
        await store.set('f', 1.5, LONG_TTL);
        await expect(store.increment('f', LONG_TTL)).rejects.toThrow(/not an integer/);
        await store.set('s', 'text', LONG_TTL);
        await expect(store.increment('s', LONG_TTL)).rejects.toThrow(/not an integer/);
      });

      it('starts the ttl on the first increment only (a fixed window)', async () => {
        expect(await store.increment('c', SHORT_TTL)).toBe(1);
        expect(await store.increment('c', LONG_TTL)).toBe(2);
        await waitPast(SHORT_TTL);
        expect(await store.get('c')).toBeUndefined();
        expect(await store.increment('c', LONG_TTL)).toBe(1);
      });
    });

    describe('append / list', () => {
      it('appends in order', async () => {
        for (const value of [1, 2, 3]) await store.append('l', value, 10, LONG_TTL);
        expect(await store.list('l')).toEqual([1, 2, 3]);
      });

      it('keeps at most maxLength items, dropping the oldest', async () => {
        for (let index = 1; index <= 5; index++) await store.append('l', index, 3, LONG_TTL);
        expect(await store.list('l')).toEqual([3, 4, 5]);
        await store.append('one', 'a', 1, LONG_TTL);
        await store.append('one', 'b', 1, LONG_TTL);
        expect(await store.list('one')).toEqual(['b']);
      });

      it('keeps every one of 20 concurrent appends within the bound', async () => {
        await Promise.all(Array.from({ length: 20 }, (_, index) => store.append('l', index, 100, LONG_TTL)));
        expect([...(await store.list<number>('l'))].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
      });

      it('round-trips nested items and returns a copy', async () => {
        await store.append(
          'l',
          { id: 'e.1', message: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'hi' }] } } },
          10,
          LONG_TTL,
        );
        const items = await store.list<Record<string, unknown>>('l');
        expect(items).toEqual([{ id: 'e.1', message: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'hi' }] } } }]);
        items.push({ mutated: true });
        expect(await store.list('l')).toHaveLength(1);
      });

      it('list of an unknown key is empty', async () => {
        expect(await store.list('none')).toEqual([]);
      });

      it('append refreshes the ttl of the list', async () => {
        await store.append('l', 1, 10, SHORT_TTL);
        await store.append('l', 2, 10, LONG_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.list('l')).toEqual([1, 2]);
      });

      it('a list expires, and appending afterwards starts a new one', async () => {
        await store.append('l', 'old', 10, SHORT_TTL);
        await eventually(async () => (await store.list('l')).length === 0, 5_000, 'list expiry');
        await store.append('l', 'new', 10, LONG_TTL);
        expect(await store.list('l')).toEqual(['new']);
      });

      it('with maxBytes, keeps at most that many bytes of JSON text, dropping the oldest', async () => {
        // Each item's JSON text is 10 bytes ("item-<n>" and its quotes): 25 bytes hold two.
        for (let index = 1; index <= 5; index++) await store.append('l', `item-00${index}`, 100, LONG_TTL, { maxBytes: 25 });
        expect(await store.list('l')).toEqual(['item-004', 'item-005']);
        // "x" is 3 bytes: 23 in all still fit; the next 10 drop only the oldest, as many as needed.
        await store.append('l', 'x', 100, LONG_TTL, { maxBytes: 25 });
        expect(await store.list('l')).toEqual(['item-004', 'item-005', 'x']);
        await store.append('l', 'item-006', 100, LONG_TTL, { maxBytes: 25 });
        expect(await store.list('l')).toEqual(['item-005', 'x', 'item-006']);
      });

      it('counts UTF-8 bytes, not characters', async () => {
        // "éééé" is 6 characters of JSON text but 10 bytes: two fit in 20 bytes, not three.
        for (let index = 0; index < 3; index++) await store.append('l', 'éééé', 100, LONG_TTL, { maxBytes: 20 });
        expect(await store.list('l')).toEqual(['éééé', 'éééé']);
      });

      it('the count bound still holds beside a byte bound, whichever is reached first', async () => {
        for (let index = 1; index <= 4; index++) await store.append('count', index, 2, LONG_TTL, { maxBytes: 1_000 });
        expect(await store.list('count')).toEqual([3, 4]);
        for (let index = 1; index <= 4; index++) await store.append('bytes', 'x'.repeat(8), 3, LONG_TTL, { maxBytes: 20 });
        expect(await store.list('bytes')).toHaveLength(2);
      });

      it('with oversized, keeps it in place of a value whose text alone is over maxBytes (and the others)', async () => {
        const options: { maxBytes: number; oversized: Record<string, unknown> } = { maxBytes: 40, oversized: { id: 2, left: 'out' } };
        await store.append('l', { id: 1 }, 10, LONG_TTL, options);
        await store.append('l', { id: 2, text: 'x'.repeat(50) }, 10, LONG_TTL, options);
        await store.append('l', { id: 3 }, 10, LONG_TTL, options);
        expect(await store.list('l')).toEqual([{ id: 1 }, { id: 2, left: 'out' }, { id: 3 }]);
      });

      it('keeps an item larger than maxBytes alone, until the next append drops it', async () => {
        await store.append('l', 'small', 10, LONG_TTL, { maxBytes: 20 });
        await store.append('l', 'x'.repeat(50), 10, LONG_TTL, { maxBytes: 20 });
        expect(await store.list('l')).toEqual(['x'.repeat(50)]);
        await store.append('l', 'next', 10, LONG_TTL, { maxBytes: 20 });
        expect(await store.list('l')).toEqual(['next']);
      });

      it('counts what the list holds whatever bound earlier appends had, and starts again after delete or set', async () => {
        for (let index = 1; index <= 3; index++) await store.append('l', `item-00${index}`, 10, LONG_TTL);
        await store.append('l', 'item-004', 10, LONG_TTL, { maxBytes: 30 });
        expect(await store.list('l')).toEqual(['item-002', 'item-003', 'item-004']);
        await store.delete('l');
        await store.append('l', 'item-005', 10, LONG_TTL, { maxBytes: 20 });
        await store.set('l', 'plain', LONG_TTL);
        await store.delete('l');
        await store.append('l', 'item-006', 10, LONG_TTL, { maxBytes: 20 });
        await store.append('l', 'item-007', 10, LONG_TTL, { maxBytes: 20 });
        expect(await store.list('l')).toEqual(['item-006', 'item-007']);
      });

      it('an append with maxBytes refreshes the ttl; a list that expired starts with no bytes counted', async () => {
        await store.append('l', 'item-001', 10, SHORT_TTL, { maxBytes: 20 });
        await store.append('l', 'item-002', 10, LONG_TTL, { maxBytes: 20 });
        await waitPast(SHORT_TTL);
        expect(await store.list('l')).toEqual(['item-001', 'item-002']);
        await store.append('gone', 'item-001', 10, SHORT_TTL, { maxBytes: 20 });
        await store.append('gone', 'item-002', 10, SHORT_TTL, { maxBytes: 20 });
        await eventually(async () => (await store.list('gone')).length === 0, 5_000, 'list expiry');
        await store.append('gone', 'item-003', 10, LONG_TTL, { maxBytes: 20 });
        await store.append('gone', 'item-004', 10, LONG_TTL, { maxBytes: 20 });
        expect(await store.list('gone')).toEqual(['item-003', 'item-004']);
      });

      it('of 20 concurrent appends under a byte bound, the list keeps exactly what fits', async () => {
        await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            store.append('l', `item-${String(index).padStart(3, '0')}`, 100, LONG_TTL, { maxBytes: 100 }),
          ),
        );
        const items = await store.list<string>('l');
        expect(items).toHaveLength(10);
        expect(new Set(items).size).toBe(10);
      });

      it('refuses a maxBytes that is not a positive integer, and stores nothing', async () => {
        for (const maxBytes of [0, -1, 1.5, Number.NaN])
          await expect(store.append('l', 1, 10, LONG_TTL, { maxBytes })).rejects.toThrow(RangeError);
        expect(await store.list('l')).toEqual([]);
      });

      it('a list and a plain value do not mix (WRONGTYPE, as Redis answers)', async () => {
        await store.append('l', 1, 10, LONG_TTL);
        await store.set('v', 1, LONG_TTL);
        await expect(store.get('l')).rejects.toThrow(/WRONGTYPE/);
        await expect(store.list('v')).rejects.toThrow(/WRONGTYPE/);
        await expect(store.append('v', 2, 10, LONG_TTL)).rejects.toThrow(/WRONGTYPE/);
        await expect(store.append('v', 2, 10, LONG_TTL, { maxBytes: 100 })).rejects.toThrow(/WRONGTYPE/);
        await expect(store.compareAndSet<unknown>('l', [1], 'x', LONG_TTL)).rejects.toThrow(/WRONGTYPE/);
        expect(await store.list('l')).toEqual([1]);
        expect(await store.get('v')).toBe(1);
      });
    });

    // The sets of one call share a {tag}: on Redis Cluster that keeps them on one slot (a script needs it).
    describe('reserveSlot / releaseSlot (bounded sets with expiring members)', () => {
      const sets = (limit: number, other = 10) => [
        { key: 'slots:{t}:a', limit },
        { key: 'slots:{t}:all', limit: other },
      ];

      it('counts members up to the limit, then names the full set; a member already counted is refreshed, not refused', async () => {
        expect(await store.reserveSlot('m1', sets(2), LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('m2', sets(2), LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('m3', sets(2), LONG_TTL)).toBe(0);
        expect(await store.reserveSlot('m1', sets(2), LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('m3', sets(5, 2), LONG_TTL)).toBe(1);
      });

      it('is all or none: a refusal by one set counts the member in none', async () => {
        expect(await store.reserveSlot('m1', [{ key: 'slots:{t}:a', limit: 1 }], LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('m2', sets(1), LONG_TTL)).toBe(0);
        // m2 was not added to slots:{t}:all, so slots:{t}:all still has room for exactly one more.
        expect(await store.reserveSlot('m3', [{ key: 'slots:{t}:all', limit: 1 }], LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('m4', [{ key: 'slots:{t}:all', limit: 1 }], LONG_TTL)).toBe(0);
      });

      it('releaseSlot frees the place at once; releasing an unknown member is fine', async () => {
        await store.reserveSlot('m1', sets(1), LONG_TTL);
        await store.releaseSlot('m1', ['slots:{t}:a', 'slots:{t}:all']);
        await store.releaseSlot('never', ['slots:{t}:a', 'slots:{t}:none']);
        expect(await store.reserveSlot('m2', sets(1), LONG_TTL)).toBe(-1);
      });

      it('an expired member no longer counts; a refreshed one keeps counting', async () => {
        await store.reserveSlot('short', sets(2), SHORT_TTL);
        await store.reserveSlot('kept', sets(2), SHORT_TTL);
        await store.reserveSlot('kept', sets(2), LONG_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.reserveSlot('new', sets(2), LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('another', sets(2), LONG_TTL)).toBe(0);
      });

      it('sets are independent of each other', async () => {
        expect(await store.reserveSlot('m1', [{ key: 'slots:b', limit: 1 }], LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('m1', [{ key: 'slots:c', limit: 1 }], LONG_TTL)).toBe(-1);
        expect(await store.reserveSlot('m2', [{ key: 'slots:b', limit: 1 }], LONG_TTL)).toBe(0);
      });

      it('of 20 concurrent reservations against a limit of 5, exactly 5 are counted', async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, index) => store.reserveSlot(`m${index}`, [{ key: 'slots:race', limit: 5 }], LONG_TTL)),
        );
        expect(outcomes.filter((outcome) => outcome === -1)).toHaveLength(5);
      });
    });

    // The record's key has no {tag}, as a session's: on Redis Cluster it may sit on another slot than its sets.
    describe('touch (a record and its places in slot sets, kept alive in one call)', () => {
      const setKeys = ['slots:{t}:a', 'slots:{t}:all'];
      const sets = (limit: number) => setKeys.map((key) => ({ key, limit }));

      it('refreshes the TTL of the value (unchanged) and of its member in every set', async () => {
        await store.set('rec', { n: 1 }, SHORT_TTL);
        await store.reserveSlot('rec', sets(1), SHORT_TTL);
        expect(await store.touch('rec', LONG_TTL, { member: 'rec', setKeys })).toBe(true);
        await waitPast(SHORT_TTL);
        expect(await store.get('rec')).toEqual({ n: 1 });
        // Still counted in both sets: a new member is refused by the first.
        expect(await store.reserveSlot('other', sets(1), LONG_TTL)).toBe(0);
      });

      it('answers false and refreshes nothing when the key is absent or expired', async () => {
        expect(await store.touch('missing', LONG_TTL, { member: 'missing', setKeys })).toBe(false);
        expect(await store.reserveSlot('other', sets(1), LONG_TTL)).toBe(-1);
        await store.set('gone', 1, SHORT_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.touch('gone', LONG_TTL)).toBe(false);
        expect(await store.get('gone')).toBeUndefined();
      });

      it('counts a member again where it had expired, and works without sets or on a list', async () => {
        await store.set('rec', 1, LONG_TTL);
        await store.reserveSlot('rec', sets(1), SHORT_TTL);
        await waitPast(SHORT_TTL);
        expect(await store.touch('rec', LONG_TTL, { member: 'rec', setKeys })).toBe(true);
        expect(await store.reserveSlot('other', sets(1), LONG_TTL)).toBe(0);
        await store.append('events', 'e1', 10, SHORT_TTL);
        expect(await store.touch('events', LONG_TTL)).toBe(true);
        await waitPast(SHORT_TTL);
        expect(await store.list('events')).toEqual(['e1']);
      });
    });

    describe('admit (a fixed-window counter in front of slot sets, all or none)', () => {
      const window = (limit: number, ms = LONG_TTL) => ({ key: 'admit:{t}:rate', limit, ms });
      const calls = (limit: number) => [{ key: 'admit:{t}:calls', limit }];

      it('admits up to the window limit, then names the window with the time left in it', async () => {
        expect(await store.admit('c1', window(2), calls(10), LONG_TTL)).toEqual({ admitted: true });
        expect(await store.admit('c2', window(2), calls(10), LONG_TTL)).toEqual({ admitted: true });
        const refused = await store.admit('c3', window(2), calls(10), LONG_TTL);
        expect(refused).toMatchObject({ admitted: false, fullWindow: true });
        const { retryAfterMs } = refused as { retryAfterMs: number };
        expect(retryAfterMs).toBeGreaterThan(0);
        expect(retryAfterMs).toBeLessThanOrEqual(LONG_TTL);
      });

      it('a refusal by a set counts nothing in the window, and a refusal by the window reserves nothing', async () => {
        expect(await store.admit('c1', window(2), calls(1), LONG_TTL)).toEqual({ admitted: true });
        expect(await store.admit('c2', window(2), calls(1), LONG_TTL)).toEqual({ admitted: false, fullWindow: false, fullSet: 0 });
        await store.releaseSlot('c1', ['admit:{t}:calls']);
        // c2 was not counted in the window: one more fits, then the window is full.
        expect(await store.admit('c3', window(2), calls(1), LONG_TTL)).toEqual({ admitted: true });
        await store.releaseSlot('c3', ['admit:{t}:calls']);
        expect(await store.admit('c4', window(2), calls(1), LONG_TTL)).toMatchObject({ admitted: false, fullWindow: true });
        expect(await store.reserveSlot('other', calls(1), LONG_TTL)).toBe(-1);
      });

      it('a new window starts once the old one has run out; without a window it is reserveSlot', async () => {
        expect(await store.admit('c1', window(1, SHORT_TTL), [], LONG_TTL)).toEqual({ admitted: true });
        expect(await store.admit('c2', window(1, SHORT_TTL), [], LONG_TTL)).toMatchObject({ admitted: false, fullWindow: true });
        await waitPast(SHORT_TTL);
        expect(await store.admit('c3', window(1, SHORT_TTL), [], LONG_TTL)).toEqual({ admitted: true });
        expect(await store.admit('c4', undefined, calls(1), LONG_TTL)).toEqual({ admitted: true });
        expect(await store.admit('c5', undefined, calls(1), LONG_TTL)).toEqual({ admitted: false, fullWindow: false, fullSet: 0 });
      });

      it('of 20 concurrent admissions against a window of 7 and 5 slots, exactly 5 are admitted; the window counted only those', async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, index) => store.admit(`c${index}`, window(7), calls(5), LONG_TTL)),
        );
        expect(outcomes.filter((outcome) => outcome.admitted)).toHaveLength(5);
        await Promise.all(Array.from({ length: 20 }, (_, index) => store.releaseSlot(`c${index}`, ['admit:{t}:calls'])));
        const more = await Promise.all(Array.from({ length: 5 }, (_, index) => store.admit(`d${index}`, window(7), calls(5), LONG_TTL)));
        expect(more.filter((outcome) => outcome.admitted)).toHaveLength(2);
      });
    });
  });
}
