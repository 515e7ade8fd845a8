import { CLIENT_TEXT_MAX_CHARACTERS, clientText, clientTextList } from './client-text.js';

describe('clientText', () => {
  it('keeps short printable text as is', () => {
    expect(clientText('tools/list')).toBe('tools/list');
    expect(clientText('météo ☀')).toBe('météo ☀');
  });

  it(`cuts long text to ${CLIENT_TEXT_MAX_CHARACTERS} characters and an ellipsis`, () => {
    expect(clientText('a'.repeat(1_000_000))).toBe(`${'a'.repeat(CLIENT_TEXT_MAX_CHARACTERS)}…`);
    expect(clientText('a'.repeat(CLIENT_TEXT_MAX_CHARACTERS))).toBe('a'.repeat(CLIENT_TEXT_MAX_CHARACTERS));
    expect(clientText('abcdef', 3)).toBe('abc…');
  });

  it('never splits a surrogate pair', () => {
    expect(clientText('😀😀😀', 2)).toBe('😀😀…');
  });

  it('escapes characters that could start a new line or hide text', () => {
    expect(clientText('x\n[Nest] 1 - LOG forged')).toBe('x\\n[Nest] 1 - LOG forged');
    expect(clientText('a\r\tb\u0000c\u001b[31md\u007f\u0085\u2028')).toBe('a\\r\\tb\\u0000c\\u001b[31md\\u007f\\u0085\\u2028');
  });

  it('writes non-strings as strings', () => {
    expect(clientText(42)).toBe('42');
    expect(clientText(undefined)).toBe('undefined');
  });
});

describe('clientTextList', () => {
  it('lists up to maxItems bounded texts, then how many more', () => {
    expect(clientTextList(['a', 'b'])).toBe('a, b');
    expect(clientTextList(['a', 'b', 'c', 'd'], 2)).toBe('a, b and 2 more');
    expect(clientTextList(['x'.repeat(100)], 10, 3)).toBe('xxx…');
  });
});
