import { addressKey, CallerBudget } from './caller-budget.js';

describe('CallerBudget', () => {
  it('counts each caller and the total per window; a refusal counts nothing and names the wait', () => {
    let now = 1_000;
    const budget = new CallerBudget({ perCaller: 2, total: 3, windowMs: 60_000 }, () => now);
    expect(budget.take(['a', 'client-1'])).toBeUndefined();
    expect(budget.take(['a', 'client-2'])).toBeUndefined();
    expect(budget.take(['a', 'client-3'])).toBe(60_000);
    expect(budget.take(['b', 'client-1'])).toBeUndefined();
    // client-1 has two, and the total is spent.
    expect(budget.take(['c', 'client-4'])).toBe(60_000);
    now += 60_000;
    expect(budget.take(['a', 'client-1'])).toBeUndefined();
  });

  it('keeps at most maxCallers callers, the least recently counted forgotten first', () => {
    const budget = new CallerBudget({ perCaller: 1, total: 100, windowMs: 60_000, maxCallers: 2 });
    expect(budget.take(['a'])).toBeUndefined();
    expect(budget.take(['b'])).toBeUndefined();
    expect(budget.take(['c'])).toBeUndefined();
    // `a` was forgotten; `c` was not.
    expect(budget.take(['a'])).toBeUndefined();
    expect(budget.take(['a'])).toBeDefined();
  });
});

describe('addressKey', () => {
  it('counts an IPv6 address by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
  });
});
