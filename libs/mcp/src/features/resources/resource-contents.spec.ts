import { toReadResourceResult } from './resource-contents.js';

describe('toReadResourceResult', () => {
  it('sends a string as text, with the declared mimeType', () => {
    expect(toReadResourceResult('hello', 'test://a', 'text/plain')).toEqual({
      contents: [{ uri: 'test://a', mimeType: 'text/plain', text: 'hello' }],
    });
    expect(toReadResourceResult('', 'test://a', undefined)).toEqual({ contents: [{ uri: 'test://a', text: '' }] });
  });

  it('sends a Buffer or Uint8Array as a base64 blob', () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    expect(toReadResourceResult(bytes, 'test://png', 'image/png')).toEqual({
      contents: [{ uri: 'test://png', mimeType: 'image/png', blob: 'iVBORw==' }],
    });
    expect(toReadResourceResult(Buffer.from('hi'), 'test://b', undefined)).toEqual({ contents: [{ uri: 'test://b', blob: 'aGk=' }] });
  });

  it('passes explicit contents through, filling a missing mimeType and encoding byte blobs', () => {
    const value = {
      contents: [
        { uri: 'test://a/1', text: 'one' },
        { uri: 'test://a/2', mimeType: 'application/json', text: '{}' },
        { uri: 'test://a/3', blob: new Uint8Array([1, 2, 3]) },
        { uri: 'test://a/4', blob: 'AQID', _meta: { k: 1 } },
      ],
    };
    expect(toReadResourceResult(value, 'test://a', 'text/plain')).toEqual({
      contents: [
        { uri: 'test://a/1', mimeType: 'text/plain', text: 'one' },
        { uri: 'test://a/2', mimeType: 'application/json', text: '{}' },
        { uri: 'test://a/3', mimeType: 'text/plain', blob: 'AQID' },
        { uri: 'test://a/4', mimeType: 'text/plain', blob: 'AQID', _meta: { k: 1 } },
      ],
    });
    expect(toReadResourceResult({ contents: [] }, 'test://a', undefined)).toEqual({ contents: [] });
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a plain object', { text: 'x' }],
    ['contents not an array', { contents: 'x' }],
    ['an entry without uri', { contents: [{ text: 'x' }] }],
    ['an entry with neither text nor blob', { contents: [{ uri: 'test://a' }] }],
    ['an entry with both text and blob', { contents: [{ uri: 'test://a', text: 'x', blob: 'eA==' }] }],
    ['a non-string text', { contents: [{ uri: 'test://a', text: 1 }] }],
    ['a non-string mimeType', { contents: [{ uri: 'test://a', text: 'x', mimeType: 1 }] }],
    ['an array', ['x']],
  ])('refuses %s', (_label, value) => {
    expect(toReadResourceResult(value, 'test://a', undefined)).toBeUndefined();
  });
});
