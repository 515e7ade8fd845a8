import { withoutPatterns } from './foreign-schema.js';

describe('withoutPatterns', () => {
  it('drops the pattern keyword at any depth, not a property or data named pattern', () => {
    const schema = {
      type: 'object',
      properties: {
        pattern: { type: 'string', pattern: '^(a+)+$' },
        list: { type: 'array', items: { anyOf: [{ type: 'string', pattern: 'x' }] } },
      },
      propertyNames: { pattern: '^[a-z]+$' },
      default: { pattern: 'kept' },
      ...JSON.parse('{"$defs": {"__proto__": {"pattern": "y"}}}'),
    };
    const checked = withoutPatterns(schema)!;
    expect(checked.properties).toEqual({ pattern: { type: 'string' }, list: { type: 'array', items: { anyOf: [{ type: 'string' }] } } });
    expect(checked.propertyNames).toEqual({});
    expect(checked.default).toEqual({ pattern: 'kept' });
    expect(Object.getPrototypeOf(checked.$defs)).toBe(Object.prototype);
    expect(Object.keys(checked.$defs as object)).toEqual(['__proto__']);
  });

  it('gives up on a schema with patternProperties, at any depth', () => {
    expect(withoutPatterns({ type: 'object', properties: { a: { patternProperties: { x: {} } } } })).toBeUndefined();
  });
});
