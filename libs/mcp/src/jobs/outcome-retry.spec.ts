import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';
import { recordOutcome } from './outcome-retry.js';

describe('recordOutcome (a finished job records its outcome even across a store outage)', () => {
  it('retries while the store is unavailable, then returns what the write returned', async () => {
    let attempts = 0;
    const written = await recordOutcome(async () => {
      if (++attempts < 3) throw new McpStoreUnavailableError('redis down');
      return 'written';
    }, 5_000);
    expect([written, attempts]).toEqual(['written', 3]);
  });

  it('throws any other error at once, and the outage error once the retry time is over', async () => {
    let attempts = 0;
    await expect(recordOutcome(async () => (attempts++, Promise.reject(new Error('bug'))), 5_000)).rejects.toThrow('bug');
    expect(attempts).toBe(1);
    await expect(recordOutcome(async () => Promise.reject(new McpStoreUnavailableError('still down')), 300)).rejects.toThrow('still down');
  });
});
