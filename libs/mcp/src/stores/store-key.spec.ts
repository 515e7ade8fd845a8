import { encodeKeyPart, storeKey, tenantSlotKey } from './store-key.js';

describe('storeKey', () => {
  it('joins escaped parts with ":"; plain parts, "/" and non-ASCII letters stay readable', () => {
    expect(storeKey('job', 'acme', 'job_abc')).toBe('job:acme:job_abc');
    expect(storeKey('job', 'team/eu', 'x')).toBe('job:team/eu:x');
    expect(storeKey('job', '京都', 'x')).toBe('job:京都:x');
  });

  it('escapes the separator, the escape character and control characters, so no part contains ":"', () => {
    expect(encodeKeyPart('acme:eu')).toBe('acme%3Aeu');
    expect(encodeKeyPart('100%')).toBe('100%25');
    expect(encodeKeyPart('x\u0000y\n')).toBe('x%00y%0A');
  });

  it.each([
    [
      ['acme:eu', 'job_1'],
      ['acme', 'eu:job_1'],
    ],
    [
      ['x\u0000y', 'bob'],
      ['x', 'y\u0000bob'],
    ],
    [
      ['acme:create_weather_alert', 'create_weather_alert', 'k'],
      ['acme', 'create_weather_alert', 'create_weather_alert:k'],
    ],
    [['a%3Ab'], ['a:b']],
    [['\ud800'], ['\ufffd']],
    [['a', ''], ['a:']],
  ])('distinct parts give distinct keys: %j vs %j', (left, right) => {
    expect(storeKey(...left)).not.toBe(storeKey(...right));
  });

  it('escapes a lone surrogate (UTF-8 would turn it into U+FFFD) and keeps a well-formed pair as it is', () => {
    expect(encodeKeyPart('a\ud800b')).toBe('a%uD800b');
    expect(encodeKeyPart('\udc00')).toBe('%uDC00');
    expect(encodeKeyPart('😀')).toBe('😀');
    // What Redis stores is UTF-8: the two tenants must stay apart there too.
    expect(Buffer.from(storeKey('t', '\ud800')).equals(Buffer.from(storeKey('t', '\ufffd')))).toBe(false);
  });
});

describe('tenantSlotKey', () => {
  /** What Redis Cluster hashes: the text between the first "{" and the first "}" after it, when not empty. */
  const hashedPart = (key: string) => {
    const open = key.indexOf('{');
    const close = open < 0 ? -1 : key.indexOf('}', open + 1);
    return close > open + 1 ? key.slice(open + 1, close) : key;
  };

  it("puts the tenant in one hash tag after the kind, so all of a tenant's keys share a slot", () => {
    expect(tenantSlotKey('quota', 'acme', 'limits.maxSessionsPerTenant')).toBe('quota:{acme}:limits.maxSessionsPerTenant');
    expect(hashedPart(tenantSlotKey('quota', 'acme', 'a'))).toBe(hashedPart(tenantSlotKey('calls', 'acme')));
    expect(hashedPart(tenantSlotKey('quota', 'acme', 'a'))).not.toBe(hashedPart(tenantSlotKey('quota', 'globex', 'a')));
  });

  it.each(['}', '{x}', 'a}b', '}{', '{', 'a:b', '%7D'])('tenant %p cannot end or move the tag, and stays distinct', (tenant) => {
    const key = tenantSlotKey('quota', tenant, 'limits.maxSessionsPerTenant');
    expect(hashedPart(key)).toBe(hashedPart(tenantSlotKey('calls', tenant)));
    expect(hashedPart(key)).not.toBe('');
    expect(key.match(/[{}]/g)).toEqual(['{', '}']);
    expect(hashedPart(key)).not.toBe(hashedPart(tenantSlotKey('quota', `${tenant}x`, 'limits.maxSessionsPerTenant')));
  });
});
