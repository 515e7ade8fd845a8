import { MAX_COMPLETION_VALUES, toCompletionResult } from './completion-values.js';

describe('toCompletionResult', () => {
  it('takes an array of strings as the values', () => {
    expect(toCompletionResult(['a', 'b'])).toEqual({ values: ['a', 'b'] });
    expect(toCompletionResult([])).toEqual({ values: [] });
  });

  it('keeps total and hasMore of an object', () => {
    expect(toCompletionResult({ values: ['a'], total: 10, hasMore: true })).toEqual({ values: ['a'], total: 10, hasMore: true });
    expect(toCompletionResult({ values: ['a'], hasMore: false })).toEqual({ values: ['a'], hasMore: false });
  });

  it(`cuts to ${MAX_COMPLETION_VALUES} values, sets hasMore, and the total unless given`, () => {
    const many = Array.from({ length: 150 }, (_, index) => `v${index}`);
    expect(toCompletionResult(many)).toEqual({ values: many.slice(0, 100), total: 150, hasMore: true });
    expect(toCompletionResult({ values: many, total: 1000, hasMore: false })).toEqual({
      values: many.slice(0, 100),
      total: 1000,
      hasMore: true,
    });
    expect(toCompletionResult(many.slice(0, 100))).toEqual({ values: many.slice(0, 100) });
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['a string', 'a'],
    ['numbers', [1, 2]],
    ['an object without values', { total: 1 }],
    ['a negative total', { values: [], total: -1 }],
    ['a fractional total', { values: [], total: 1.5 }],
    ['a non-boolean hasMore', { values: [], hasMore: 'yes' }],
  ])('refuses %s', (_label, value) => {
    expect(toCompletionResult(value)).toBeUndefined();
  });
});
