import type { JsonSchema } from '../../core/json-schema.types.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText, clientTextList } from '../../core/client-text.js';
import type { McpPromptArgument } from './mcp-prompt-options.interface.js';
import { isStandardSchema } from '../../core/standard-schema.js';
import { standardArguments, type StandardArguments } from '../tools/schema/standard-tool.schemas.js';

/** Fields named in an error's data, like the names in its message. */
const MAX_LISTED_FIELDS = 10;

/** A prompt's arguments as described by its DTO's schema: property names, descriptions, `required`. */
export function argumentsFromSchema(schema: JsonSchema): McpPromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    ...(typeof property.title === 'string' && { title: property.title }),
    ...(typeof property.description === 'string' && { description: property.description }),
    required: required.has(name),
  }));
}

/**
 * A prompt's arguments declared by a Standard Schema (`@McpPrompt({ arguments })`, `args` of a registration): the
 * list `prompts/list` shows, read from its JSON Schema, and its validation. Undefined for anything else.
 */
export function standardPromptArguments(
  schema: unknown,
  site: string,
  option: string,
): { declared: McpPromptArgument[]; validator: StandardArguments['validator'] } | undefined {
  if (!isStandardSchema(schema)) return undefined;
  const { jsonSchema, validator } = standardArguments(schema, { site, option, override: 'arguments (as a list)' });
  return { declared: argumentsFromSchema(jsonSchema), validator };
}

/** What is wrong with a declared argument list, or undefined when it is fine. */
export function argumentListProblem(list: unknown): string | undefined {
  if (!Array.isArray(list)) return 'expected an array of { name, description?, required? }';
  const seen = new Set<string>();
  for (const [index, argument] of list.entries()) {
    const name = (argument as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || name.trim() === '') return `argument ${index} needs a non-empty "name"`;
    if (seen.has(name)) return `argument "${name}" is declared twice`;
    const required = (argument as { required?: unknown }).required;
    if (required !== undefined && typeof required !== 'boolean') return `"required" of argument "${name}" must be a boolean`;
    seen.add(name);
  }
  return undefined;
}

/**
 * Checks `prompts/get` arguments against the declaration (all -32602): values must be strings (the spec's
 * `{ [key: string]: string }`), names must be declared, and required ones present.
 */
export function checkPromptArguments(declared: readonly McpPromptArgument[], raw: Record<string, unknown>): Record<string, string> {
  const known = new Set(declared.map((argument) => argument.name));
  const notStrings = Object.keys(raw).filter((name) => typeof raw[name] !== 'string');
  if (notStrings.length > 0) throw invalid(`argument values must be strings (${clientTextList(notStrings)})`, notStrings);
  const unknown = Object.keys(raw).filter((name) => !known.has(name));
  if (unknown.length > 0) throw invalid(`unknown argument(s) ${clientTextList(unknown)}`, unknown);
  const missing = declared
    .filter((argument) => argument.required === true && !Object.hasOwn(raw, argument.name))
    .map((argument) => argument.name);
  if (missing.length > 0) throw invalid(`missing required argument(s) ${missing.join(', ')}`, missing);
  return raw as Record<string, string>;
}

/** Names in `fields` may be the client's own: as bounded as the message. */
function invalid(problem: string, fields: string[]): McpProtocolError {
  const bounded = fields.slice(0, MAX_LISTED_FIELDS).map((field) => clientText(field));
  return new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: ${problem}`, { fields: bounded });
}
