import { encodeHeaderValue } from '../../../client/eras/rev-2026-07-28.wire.js';
import { decodeHeaderValue, mcpNameSource, paramHeaderMismatch, scanParamHeaders, stripOws } from './header-values.js';

describe('header values (2026-07-28 Streamable HTTP)', () => {
  it('strips optional whitespace around a value, not inside it', () => {
    expect(stripOws('  a b \t')).toBe('a b');
  });

  it.each([
    ['=?base64?SGVsbG8=?=', 'Hello'],
    ['=?base64?5L2g5aW9?=', '你好'],
    ['SGVsbG8=', 'SGVsbG8='],
    ['=?base64?SGVsbG8=', '=?base64?SGVsbG8='],
    ['  us-west1  ', 'us-west1'],
  ])('decodes %s as %s (no sentinel: literal)', (raw, value) => {
    expect(decodeHeaderValue(raw)).toBe(value);
  });

  it.each(['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=', '=?base64?/w==?='])('refuses the malformed sentinel %s', (raw) => {
    expect(decodeHeaderValue(raw)).toBeUndefined();
  });

  it('encodes only what is not plain visible ASCII, and round-trips', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    for (const value of [' padded ', 'Hello, 世界', 'line1\nline2', '=?base64?x?=', '']) {
      expect(encodeHeaderValue(value)).toMatch(/^=\?base64\?.*\?=$/);
      expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
    }
  });

  it('names the body field Mcp-Name mirrors', () => {
    expect(mcpNameSource('tools/call', { name: 'a' })).toEqual({ field: 'name', value: 'a' });
    expect(mcpNameSource('resources/read', { uri: 'x://y' })).toEqual({ field: 'uri', value: 'x://y' });
    expect(mcpNameSource('tasks/get', {})).toEqual({ field: 'taskId', value: undefined });
    expect(mcpNameSource('tools/list', {})).toBeUndefined();
    expect(mcpNameSource('constructor', {})).toBeUndefined();
  });

  describe('x-mcp-header annotations', () => {
    const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

    it('collects annotations reachable through properties, at any depth', () => {
      const scan = scanParamHeaders(
        schema({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          nested: { type: 'object', properties: { level: { type: 'integer', 'x-mcp-header': 'Level' } } },
        }),
      );
      expect(scan).toEqual({
        ok: true,
        headers: [
          { path: ['region'], name: 'Region', type: 'string' },
          { path: ['nested', 'level'], name: 'Level', type: 'integer' },
        ],
      });
    });

    it.each([
      ['a number', schema({ n: { type: 'number', 'x-mcp-header': 'N' } }), /type string, integer or boolean/],
      ['an empty name', schema({ s: { type: 'string', 'x-mcp-header': '' } }), /HTTP token/],
      ['a name with a space', schema({ s: { type: 'string', 'x-mcp-header': 'A B' } }), /HTTP token/],
      [
        'a duplicate (case-insensitive)',
        schema({ a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } }),
        /declared twice/,
      ],
      ['an array item', schema({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }), /not reachable/],
      ['an anyOf branch', schema({}, { anyOf: [{ properties: { s: { type: 'string', 'x-mcp-header': 'S' } } }] }), /not reachable/],
      ['the root', { type: 'object', 'x-mcp-header': 'Root' }, /not reachable/],
    ])('refuses %s', (_label, input, problem) => {
      const scan = scanParamHeaders(input);
      expect(scan.ok).toBe(false);
      expect(scan.ok ? '' : scan.problem).toMatch(problem);
    });
  });

  describe('Mcp-Param-* against the arguments', () => {
    const declared = [
      { path: ['region'], name: 'Region', type: 'string' as const },
      { path: ['count'], name: 'Count', type: 'integer' as const },
      { path: ['verbose'], name: 'Verbose', type: 'boolean' as const },
    ];
    const headers = (values: Record<string, string>) => (name: string) =>
      Object.entries(values).find(([key]) => key.toLowerCase() === name)?.[1];

    it('accepts mirrored values (Base64 decoded, integers compared as numbers)', () => {
      expect(
        paramHeaderMismatch(
          declared,
          { region: 'Hello', count: 42, verbose: true },
          headers({ 'Mcp-Param-Region': '=?base64?SGVsbG8=?=', 'Mcp-Param-Count': '42.0', 'Mcp-Param-Verbose': 'true' }),
        ),
      ).toBeUndefined();
    });

    it('expects no header for a null or absent value', () => {
      expect(paramHeaderMismatch(declared, { region: null }, headers({}))).toBeUndefined();
    });

    it('refuses a missing header, a different value, and malformed Base64', () => {
      expect(paramHeaderMismatch(declared, { region: 'eu' }, headers({}))).toMatch(/missing/);
      expect(paramHeaderMismatch(declared, { region: 'eu' }, headers({ 'Mcp-Param-Region': 'us' }))).toMatch(/does not match/);
      expect(paramHeaderMismatch(declared, { region: 'Hello' }, headers({ 'Mcp-Param-Region': '=?base64?SGVsbG8?=' }))).toMatch(
        /malformed Base64/,
      );
      expect(paramHeaderMismatch(declared, { verbose: false }, headers({ 'Mcp-Param-Verbose': 'False' }))).toMatch(/does not match/);
    });
  });
});
