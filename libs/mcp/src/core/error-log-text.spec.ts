import { errorLogText } from './error-log-text.js';

describe('errorLogText', () => {
  it('puts an error and its stack on one line', () => {
    const text = errorLogText(new Error('boom\n[Nest] forged'));
    expect(text).toContain('Error: boom\\n[Nest] forged\\n    at ');
    expect(text).not.toMatch(/[\r\n]/);
  });

  it('bounds the line', () => {
    expect(errorLogText(new Error('x'.repeat(100_000))).length).toBeLessThanOrEqual(4_001);
  });

  it('survives a thrown value whose toString throws', () => {
    expect(
      errorLogText({
        toString: () => {
          throw new Error('no');
        },
      }),
    ).toBe('[object Object]');
  });
});
