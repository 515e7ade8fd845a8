import { McpConfigurationError } from '../../../core/errors/mcp-configuration.error.js';
import { isPlainObject } from '../../../core/plain-object.js';
import { isStandardSchema, vendorOf, type McpStandardSchema } from '../../../core/standard-schema.js';
import {
  McpStandardArgumentValidator,
  validateStandard,
  type StandardOutcome,
} from '../../../execution/validation/standard-argument.validator.js';
import type { JsonSchema } from '../../../core/json-schema.types.js';
import { standardJsonSchema, type StandardSchemaSide } from './standard-json-schema.js';
import { McpStandardSchemaMessages as Messages } from './standard-schema.messages.js';

/** Where a schema is declared, for boot errors: the tool or prompt, its option, and the option that overrides it. */
export interface StandardSchemaPlace {
  readonly site: string;
  /** `input`, `output`, `args`, `arguments`. */
  readonly option: string;
  /** `inputSchema`, `outputSchema`: the JSON Schema a user may give in place of the converted one. */
  readonly override: string;
}

/** Arguments described by a Standard Schema: what `tools/list` shows, and the check every call runs. */
export interface StandardArguments {
  readonly jsonSchema: JsonSchema;
  readonly validator: McpStandardArgumentValidator;
}

/**
 * The arguments of a tool or prompt declared by a Standard Schema: its JSON Schema (the vendor's conversion, or
 * `override`), which must describe an object, and its validation. Every problem is a coded boot error naming `place`.
 *
 * `closed` (tools): an argument the advertised schema does not allow is refused as a DTO tool refuses it, before the
 * schema runs. An object that drops other keys (Zod's `z.object`, Valibot's `v.object`) is advertised closed
 * (`additionalProperties: false`): a misspelt optional argument would otherwise vanish without a word. Zod's
 * `z.looseObject` and `catchall` say `additionalProperties` themselves; Valibot's loose objects, which its converter
 * does not tell apart, and ArkType's objects, which pass other keys on to the tool, stay open.
 */
export function standardArguments(
  schema: unknown,
  place: StandardSchemaPlace,
  override?: Record<string, unknown>,
  closed = false,
): StandardArguments {
  if (!isStandardSchema(schema)) throw new McpConfigurationError(Messages.notAValidator(place.site, place.option));
  const jsonSchema = override === undefined ? withoutSafeIntegerBounds(converted(schema, 'input', place)) : structuredClone(override);
  if (!isPlainObject(jsonSchema) || jsonSchema.type !== 'object') {
    const found =
      isPlainObject(jsonSchema) && jsonSchema.type !== undefined ? `"type": ${JSON.stringify(jsonSchema.type)}` : 'no "type": "object"';
    throw new McpConfigurationError(Messages.notAnObject(place.site, place.option, found));
  }
  if (!closed) return { jsonSchema, validator: new McpStandardArgumentValidator(schema) };
  if (
    override === undefined &&
    dropsOtherKeys(schema) &&
    jsonSchema.additionalProperties === undefined &&
    jsonSchema.patternProperties === undefined
  ) {
    jsonSchema.additionalProperties = false;
  }
  const open = jsonSchema.additionalProperties !== false || jsonSchema.patternProperties !== undefined;
  const declared = open ? undefined : new Set(Object.keys(isPlainObject(jsonSchema.properties) ? jsonSchema.properties : {}));
  return { jsonSchema, validator: new McpStandardArgumentValidator(schema, declared) };
}

/** Whether the vendor's object drops keys it does not declare, where its JSON Schema says nothing of them. */
function dropsOtherKeys(schema: McpStandardSchema): boolean {
  const vendor = vendorOf(schema);
  if (vendor === 'zod') return true;
  return vendor === 'valibot' && (schema as { type?: unknown }).type === 'object';
}

/** The bounds Zod writes on every `.int()` (±2^53-1, `Number.MAX_SAFE_INTEGER`): true of any integer a client sends, noise. */
const SAFE_INTEGER_BOUNDS = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } as const;

/** `schema` without the safe-integer bounds of its integer subschemas, at any depth (a fresh copy is ours to change). */
function withoutSafeIntegerBounds(schema: JsonSchema): JsonSchema {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isPlainObject(node)) return;
    if (node.type === 'integer') {
      for (const bound of ['minimum', 'maximum'] as const) if (node[bound] === SAFE_INTEGER_BOUNDS[bound]) delete node[bound];
    }
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return schema;
}

/** A tool's `output` given as a Standard Schema: the JSON Schema of `data`, and the check of what the tool returns. */
export function standardOutput(
  schema: McpStandardSchema,
  place: StandardSchemaPlace,
  override?: Record<string, unknown>,
): { dataSchema: JsonSchema; parse: (data: unknown) => Promise<StandardOutcome> } {
  // `$schema` names a document's dialect; inside the envelope's `data` it would be a subschema's, which validators refuse.
  const { $schema: _dialect, ...dataSchema } =
    override === undefined ? withoutSafeIntegerBounds(converted(schema, 'output', place)) : structuredClone(override);
  return { dataSchema, parse: (data) => validateStandard(schema, data) };
}

function converted(schema: McpStandardSchema, side: StandardSchemaSide, place: StandardSchemaPlace): JsonSchema {
  try {
    return standardJsonSchema(schema, side);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new McpConfigurationError(Messages.jsonSchemaUnavailable(place.site, place.option, reason, place.override));
  }
}
