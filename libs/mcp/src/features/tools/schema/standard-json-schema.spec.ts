import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import type { McpStandardSchema } from '../../../core/standard-schema.js';
import { thrown } from '../../../../../../test/kit/boot-mcp.js';
import { loadStandardConverters, standardJsonSchema } from './standard-json-schema.js';

/** A schema of `vendor` that carries `validate` only: no Standard JSON Schema extension, no method of its own. */
function bare(vendor: string, extra: object = {}): McpStandardSchema {
  return Object.assign({ '~standard': { version: 1 as const, vendor, validate: (value: unknown) => ({ value }) } }, extra);
}

describe('standardJsonSchema', () => {
  it('uses the Standard JSON Schema extension, input or output side (Zod 4, ArkType)', () => {
    const withDefault = z.object({ days: z.number().int().default(3) });
    expect(standardJsonSchema(withDefault, 'input')).toMatchObject({ type: 'object', properties: { days: { default: 3 } } });
    expect(standardJsonSchema(withDefault, 'input').required).toBeUndefined();
    expect(standardJsonSchema(withDefault, 'output').required).toEqual(['days']);
    expect(standardJsonSchema(type({ n: 'number' }), 'input')).toMatchObject({ properties: { n: { type: 'number' } }, required: ['n'] });
  });

  it("loads a vendor's own converter at boot when the schema has none (Valibot), and refuses before that", async () => {
    const schema = v.object({ a: v.string() });
    // Each spec file has its own module registry: nothing loaded the converter yet.
    expect(thrown(() => standardJsonSchema(schema, 'input')).message).toContain("valibot's JSON Schema converter was not loaded at boot");
    await loadStandardConverters([schema]);
    expect(standardJsonSchema(schema, 'input')).toMatchObject({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
  });

  it("falls back to zod's toJSONSchema for a Zod schema without the extension", async () => {
    const real = z.object({ city: z.string().min(2) });
    const older = bare('zod', { _zod: real._zod });
    await loadStandardConverters([older]);
    expect(standardJsonSchema(older, 'input')).toMatchObject({ properties: { city: { type: 'string', minLength: 2 } } });
  });

  it('says why there is no JSON Schema: an unknown vendor, or a converter that fails', async () => {
    await loadStandardConverters([bare('homemade')]);
    expect(thrown(() => standardJsonSchema(bare('homemade'), 'input')).message).toBe(
      'homemade schemas have no JSON Schema converter (neither ~standard.jsonSchema nor toJsonSchema())',
    );
    const transformed = z.object({ when: z.string().transform((text) => new Date(text)) });
    expect(thrown(() => standardJsonSchema(transformed, 'output')).message).toMatch(/^zod's converter failed: /);
  });

  it('hands out a fresh copy each time', () => {
    const schema = z.object({ a: z.string() });
    const first = standardJsonSchema(schema, 'input');
    (first.properties as Record<string, unknown>).a = 'changed';
    expect(standardJsonSchema(schema, 'input')).toMatchObject({ properties: { a: { type: 'string' } } });
  });
});
