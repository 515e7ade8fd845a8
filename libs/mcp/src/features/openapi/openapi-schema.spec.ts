import { thrown } from '../../../../../test/kit/boot-mcp.js';
import { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import { MAX_INLINED_NODES, MAX_SCHEMA_DEPTH, OpenApiSchemaTooLargeError, toJsonSchema, toolSchema } from './openapi-schema.js';

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

/** Schemas `L0` … `L<levels>` where each of `L0` … `L<levels - 1>` has `width` properties, all a `$ref` to the next. */
function sharedLevels(levels: number, width: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = { [`L${levels}`]: { type: 'integer' } };
  for (let level = 0; level < levels; level++) {
    const properties = Object.fromEntries(
      Array.from({ length: width }, (_, index) => [`p${index}`, { $ref: `#/components/schemas/L${level + 1}` }]),
    );
    schemas[`L${level}`] = { type: 'object', properties };
  }
  return { components: { schemas } };
}

describe('toolSchema', () => {
  it('inlines while the whole schema stays small, parts sharing one budget', () => {
    const document = sharedLevels(2, 3);
    const schema = toolSchema(document, (convert) => ({ type: 'object', properties: { a: convert({ $ref: '#/components/schemas/L0' }) } }));
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'object', properties: expect.objectContaining({ p2: { type: 'object', properties: expect.any(Object) } }) },
      },
    });
    expect(schema.$defs).toBeUndefined();
  });

  it('keeps shared schemas once under $defs when inlining would grow past the budget: sized by the document, validated alike', () => {
    const document = sharedLevels(8, 8); // 8^8 leaves inlined
    const schema = toolSchema(document, (convert) => ({
      type: 'object',
      properties: { root: convert({ $ref: '#/components/schemas/L0', description: 'The root' }) },
    }));
    expect(schema.properties).toEqual({ root: { $ref: '#/$defs/L0', description: 'The root' } });
    expect(Object.keys(schema.$defs as object).sort()).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7', 'L8']);
    expect((schema.$defs as any).L3.properties.p7).toEqual({ $ref: '#/$defs/L4' });
    expect(JSON.stringify(schema).length).toBeLessThan(4 * 1024);

    const validator = new RawSchemaCompiler().compile(schema);
    const deep = (leaf: unknown) => ({ root: { p0: { p1: { p2: { p3: { p4: { p5: { p6: { p7: leaf } } } } } } } } });
    expect(validator.validate(deep(1))).toEqual({ valid: true, value: deep(1) });
    expect(validator.validate(deep('one'))).toMatchObject({ valid: false, fields: ['root.p0.p1.p2.p3.p4.p5.p6.p7'] });
  });

  it('keeps a recursive schema as it is under $defs, and names two schemas of the same last segment apart', () => {
    const document = {
      components: {
        schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } },
        responses: { Node: { description: 'not a schema name', type: 'string' } },
      },
    };
    const wide = Object.fromEntries(Array.from({ length: MAX_INLINED_NODES }, (_, index) => [`w${index}`, { type: 'string' }]));
    const schema = toolSchema(document, (convert) => ({
      type: 'object',
      properties: {
        node: convert({ $ref: '#/components/schemas/Node' }),
        other: convert({ $ref: '#/components/responses/Node' }),
        wide: convert({ type: 'object', properties: wide }),
      },
    })) as any;
    expect(schema.properties.node).toEqual({ $ref: '#/$defs/Node' });
    expect(schema.properties.other).toEqual({ $ref: '#/$defs/Node_2' });
    expect(schema.$defs).toEqual({
      Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } },
      Node_2: { description: 'not a schema name', type: 'string' },
    });
  });

  it('refuses a schema too large even under $defs', () => {
    const error = thrown(() =>
      toolSchema({}, () =>
        toJsonSchema({ type: 'object', properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`p${index}`, {}])) }),
      ),
    );
    expect(error).toBeInstanceOf(OpenApiSchemaTooLargeError);
  });
});
