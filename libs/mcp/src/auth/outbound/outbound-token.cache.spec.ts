import { OutboundTokenCache, type CachedToken } from './outbound-token.cache.js';

const minted = (token: string, inMs = 60_000): CachedToken => ({ token, until: Date.now() + inMs });

describe('OutboundTokenCache', () => {
  it('makes one request for concurrent asks of one key, and hands the token out until it nears expiry', async () => {
    const cache = new OutboundTokenCache(10);
    let requests = 0;
    const mint = async () => minted(`t${++requests}`);
    expect(await Promise.all([cache.get('alice', mint), cache.get('alice', mint)])).toEqual(['t1', 't1']);
    expect(await cache.get('alice', mint)).toBe('t1');
    expect(await cache.get('bob', mint)).toBe('t2');
    expect(requests).toBe(2);
  });

  it('asks again once a token is past its time, and does not keep one that failed', async () => {
    const cache = new OutboundTokenCache(10);
    expect(await cache.get('alice', async () => minted('old', -1))).toBe('old');
    expect(await cache.get('alice', async () => minted('new'))).toBe('new');
    await expect(cache.get('bob', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await cache.get('bob', async () => minted('later'))).toBe('later');
  });

  it('keeps at most max tokens (the least recently used dropped) and at most max requests in flight', async () => {
    const cache = new OutboundTokenCache(2);
    await cache.get('a', async () => minted('a'));
    await cache.get('b', async () => minted('b'));
    await cache.get('a', async () => minted('a2')); // a used last: b is the oldest
    await cache.get('c', async () => minted('c'));
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => minted('a3'))).toBe('a');
    expect(await cache.get('b', async () => minted('b2'))).toBe('b2');

    const never = () => new Promise<CachedToken>(() => undefined);
    const busy = new OutboundTokenCache(2);
    void busy.get('x', never);
    void busy.get('y', never);
    await expect(busy.get('z', never)).rejects.toThrow(RangeError);
  });
});
