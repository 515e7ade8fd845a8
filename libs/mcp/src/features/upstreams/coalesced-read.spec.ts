import { CoalescedRead } from './coalesced-read.js';

describe('CoalescedRead (an upstream list read again on list_changed)', () => {
  it('reads once for a burst of requests while one is in flight, then once more for the burst', async () => {
    let reads = 0;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const read = new CoalescedRead(async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (reads === 2) finish();
    }, 50);
    for (let i = 0; i < 1_000; i++) read.request();
    await done;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reads).toBe(2);
  });

  it('starts a read no sooner than the interval after the previous one began', async () => {
    const starts: number[] = [];
    const read = new CoalescedRead(async () => void starts.push(Date.now()), 100);
    read.request();
    await new Promise((resolve) => setTimeout(resolve, 10));
    read.request();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(starts).toHaveLength(2);
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(95);
  });
});
