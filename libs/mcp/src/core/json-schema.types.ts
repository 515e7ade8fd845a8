/**
 * A JSON Schema (draft 2020-12) document or sub-schema, kept as a plain keyword map so it serialises as is.
 *
 * @example
 * const schema: JsonSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * The primitive type names JSON Schema's `type` keyword accepts.
 *
 * @example
 * const nullableString: JsonSchemaTypeName[] = ['string', 'null'];
 */
export type JsonSchemaTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/**
 * A value JSON can carry as is: what `enum`, `const`, `default` and `examples` may hold.
 *
 * @example
 * const value: JsonValue = { limit: 5, tags: ['a', 'b'], strict: true, cursor: null };
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
