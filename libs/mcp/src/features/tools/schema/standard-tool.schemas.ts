import { McpConfigurationError } from '../../../core/errors/mcp-configuration.error.js';
import { isPlainObject } from '../../../core/plain-object.js';
import { isStandardSchema, type McpStandardSchema } from '../../../core/standard-schema.js';
import type { ArgumentValidation } from '../../../execution/argument-validator.js';
import { validateStandard, validateStandardArguments, type StandardOutcome } from '../../../execution/standard-validator.js';
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
  readonly parse: (args: Record<string, unknown>) => Promise<ArgumentValidation>;
}

/**
 * The arguments of a tool or prompt declared by a Standard Schema: its JSON Schema (the vendor's conversion, or
 * `override`), which must describe an object, and its validation. Every problem is a coded boot error naming `place`.
 */
export function standardArguments(schema: unknown, place: StandardSchemaPlace, override?: Record<string, unknown>): StandardArguments {
  const validator = checkedValidator(schema, place);
  const jsonSchema = override === undefined ? converted(validator, 'input', place) : structuredClone(override);
  if (!isPlainObject(jsonSchema) || jsonSchema.type !== 'object') {
    const found =
      isPlainObject(jsonSchema) && jsonSchema.type !== undefined ? `"type": ${JSON.stringify(jsonSchema.type)}` : 'no "type": "object"';
    throw new McpConfigurationError(Messages.notAnObject(place.site, place.option, found));
  }
  return { jsonSchema, parse: (args) => validateStandardArguments(validator, args) };
}

/** A tool's `output` given as a Standard Schema: the JSON Schema of `data`, and the check of what the tool returns. */
export function standardOutput(
  schema: McpStandardSchema,
  place: StandardSchemaPlace,
  override?: Record<string, unknown>,
): { dataSchema: JsonSchema; parse: (data: unknown) => Promise<StandardOutcome> } {
  // `$schema` names a document's dialect; inside the envelope's `data` it would be a subschema's, which validators refuse.
  const { $schema: _dialect, ...dataSchema } = override === undefined ? converted(schema, 'output', place) : structuredClone(override);
  return { dataSchema, parse: (data) => validateStandard(schema, data) };
}

function checkedValidator(schema: unknown, place: StandardSchemaPlace): McpStandardSchema {
  if (!isStandardSchema(schema)) throw new McpConfigurationError(Messages.notAValidator(place.site, place.option));
  return schema;
}

function converted(schema: McpStandardSchema, side: StandardSchemaSide, place: StandardSchemaPlace): JsonSchema {
  try {
    return standardJsonSchema(schema, side);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new McpConfigurationError(Messages.jsonSchemaUnavailable(place.site, place.option, reason, place.override));
  }
}
