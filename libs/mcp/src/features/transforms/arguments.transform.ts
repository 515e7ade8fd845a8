import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { JsonSchema } from '../tools/schema/json-schema.types.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpToolTransform } from './mcp-tool-transform.interface.js';
import { McpTransformMessages as Messages } from './mcp-transform.messages.js';

/**
 * Shows the tool's arguments under other names (`{ q: 'query' }`: callers send `query`, the tool gets `q`).
 * Arguments are mapped back before the tool's schema check and its handler, and a failing field is reported under
 * the name the caller used.
 */
export function renameArguments(names: Readonly<Record<string, string>>): McpToolTransform {
  const back = Object.fromEntries(Object.entries(names).map(([from, to]) => [to, from]));
  return (tool) => {
    const schema = objectSchema(tool);
    const missing = Object.keys(names).find((name) => !(name in schema.properties));
    if (missing !== undefined) throw new McpConfigurationError(Messages.unknownArgument(tool.site, 'renameArguments', missing));
    const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [names[name] ?? name, value]));
    const required = schema.required?.map((name) => names[name] ?? name);
    const inputSchema = { ...schema.raw, properties, ...(required && { required }) };
    const toTool = (args: unknown) =>
      isPlainObject(args) ? Object.fromEntries(Object.entries(args).map(([key, value]) => [back[key] ?? key, value])) : args;
    const idempotencyKey = tool.idempotencyKey && (names[tool.idempotencyKey] ?? tool.idempotencyKey);
    return { ...mapped(tool, inputSchema, toTool, (field) => names[field] ?? field), idempotencyKey };
  };
}

/**
 * Hides arguments from callers and fixes their values (`{ tenant: 'acme' }`): they leave the schema, and the tool
 * always gets the fixed values (a caller's own value for a hidden argument is overwritten).
 */
export function hideArguments(values: Readonly<Record<string, unknown>>): McpToolTransform {
  return (tool) => {
    const schema = objectSchema(tool);
    const missing = Object.keys(values).find((name) => !(name in schema.properties));
    if (missing !== undefined) throw new McpConfigurationError(Messages.unknownArgument(tool.site, 'hideArguments', missing));
    const properties = Object.fromEntries(Object.entries(schema.properties).filter(([name]) => !(name in values)));
    const required = schema.required?.filter((name) => !(name in values));
    const inputSchema = { ...schema.raw, properties, ...(required && { required }) };
    return mapped(
      tool,
      inputSchema,
      (args) => ({ ...(isPlainObject(args) ? args : {}), ...structuredClone(values) }),
      (field) => field,
    );
  };
}

interface ObjectSchema {
  readonly raw: JsonSchema;
  readonly properties: Record<string, unknown>;
  readonly required?: string[];
}

function objectSchema(tool: McpToolDefinition): ObjectSchema {
  // A DTO is validated by class-validator on the arguments as sent, before anything could map them back.
  if (tool.argsType) throw new McpConfigurationError(Messages.dtoArguments(tool.site));
  const raw = tool.descriptor.inputSchema;
  const properties = isPlainObject(raw.properties) ? raw.properties : {};
  return { raw, properties, required: Array.isArray(raw.required) ? (raw.required as string[]) : undefined };
}

/** The tool with `inputSchema` shown, and every argument path (schema check, handler) mapped by `toTool` first. */
function mapped(
  tool: McpToolDefinition,
  inputSchema: JsonSchema,
  toTool: (args: unknown) => unknown,
  toCaller: (field: string) => string,
): McpToolDefinition {
  const { checkRawArgs, handler } = tool;
  return {
    ...tool,
    descriptor: { ...tool.descriptor, inputSchema },
    ...(checkRawArgs && {
      checkRawArgs: (args: unknown) => {
        const check = checkRawArgs(toTool(args));
        return check.valid ? check : { ...check, fields: check.fields.map(toCaller) };
      },
    }),
    handler: (args, context) => handler(toTool(args), context),
  };
}
