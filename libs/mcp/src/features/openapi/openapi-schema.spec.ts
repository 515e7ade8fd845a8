import { MAX_SCHEMA_DEPTH, toJsonSchema } from './openapi-schema.js';

describe('toJsonSchema', () => {
  it('unrolls a recursive schema (the cyclic graph a recursive $ref resolves to) twice, then cuts it to {}', () => {
    const node: Record<string, any> = { type: 'object', properties: { name: { type: 'string' } } };
    node.properties.children = { type: 'array', items: node };
    const schema = toJsonSchema(node) as any;
    const second = schema.properties.children.items;
    expect(second.properties.name).toEqual({ type: 'string' });
    expect(second.properties.children.items).toEqual({});
    expect(() => JSON.stringify(schema)).not.toThrow();
  });

  it('cuts a deep schema at the depth bound', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < MAX_SCHEMA_DEPTH + 10; level++) deep = { type: 'array', items: deep };
    let depth = 0;
    for (let schema = toJsonSchema(deep) as any; schema.items; schema = schema.items) depth++;
    expect(depth).toBe(MAX_SCHEMA_DEPTH);
  });

  it("drops OpenAPI's own keywords from schemas but keeps a property or a value of that name", () => {
    const schema = toJsonSchema({
      type: 'object',
      discriminator: { propertyName: 'kind' },
      xml: { name: 'pet' },
      example: { kind: 'cat' },
      properties: { example: { type: 'string', example: 'x' }, kind: { enum: [{ example: 1 }] } },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: { example: { type: 'string' }, kind: { enum: [{ example: 1 }] } },
    });
  });

  it('copies: the source graph is left as it was, and shared subschemas become separate trees', () => {
    const shared = { type: 'string' };
    const source = { type: 'object', properties: { a: shared, b: shared } };
    const schema = toJsonSchema(source) as any;
    expect(schema.properties.a).toEqual(shared);
    expect(schema.properties.a).not.toBe(shared);
    expect(schema.properties.b).not.toBe(schema.properties.a);
  });
});
