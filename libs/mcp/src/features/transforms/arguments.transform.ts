import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { JsonSchema } from '../../core/json-schema.types.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpToolTransform } from './mcp-tool-transform.interface.js';
import { McpTransformMessages as Messages } from './mcp-transform.messages.js';

/**
 * Shows the tool's arguments under other names (`{ q: 'query' }`: callers send `query`, the tool gets `q`). The call
 * pipeline maps arguments back before the guards and the tool's own validation (DTO, JSON Schema or Standard
 * Schema), and a failing field is reported under the name the caller used. `at` names the option in boot errors.
 */
export function renameToolArguments(names: Readonly<Record<string, string>>, at: string): McpToolTransform {
  const back = new Map(Object.entries(names).map(([from, to]) => [to, from]));
  return (tool) => {
    const schema = objectSchema(tool);
    for (const from of Object.keys(names)) if (!(from in schema.properties)) throw unknownArgument(at, tool, from, schema);
    const shown = Object.keys(schema.properties).map((name) => names[name] ?? name);
    const twice = shown.find((name, index) => shown.indexOf(name) !== index);
    if (twice !== undefined) throw new McpConfigurationError(Messages.argumentClash(at, tool.site, twice));
    const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [names[name] ?? name, value]));
    const required = schema.required?.map((name) => names[name] ?? name);
    // A key under a name the tool no longer shows is no argument of the caller's: dropped, like any unknown key of a parse.
    const toTool = (args: Record<string, unknown>) => {
      const mapped: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(args)) {
        const original = back.get(key);
        if (original !== undefined) mapped[original] = value;
        else if (!Object.hasOwn(names, key)) mapped[key] = value;
      }
      return mapped;
    };
    return shaped(tool, { ...schema.raw, properties, ...(required && { required }) }, toTool, (name) => names[name] ?? name);
  };
}

/**
 * Hides arguments from callers and fixes their values (`{ tenant: 'acme' }`): they leave the schema, and the tool
 * always gets the fixed values (a caller's own value for a hidden argument is replaced); `undefined` hides an
 * optional argument without a value. The tool's own validation then checks the arguments with the fixed values.
 */
export function hideToolArguments(values: Readonly<Record<string, unknown>>, at: string): McpToolTransform {
  const hidden = Object.keys(values);
  const fixed = Object.entries(values).filter(([, value]) => value !== undefined);
  return (tool) => {
    const schema = objectSchema(tool);
    for (const name of hidden) {
      if (!(name in schema.properties)) throw unknownArgument(at, tool, name, schema);
      if (values[name] === undefined && schema.required?.includes(name))
        throw new McpConfigurationError(Messages.requiredHidden(at, tool.site, name));
      if (name === tool.idempotencyKey) throw new McpConfigurationError(Messages.idempotencyKeyHidden(at, tool.site, name));
    }
    const properties = Object.fromEntries(Object.entries(schema.properties).filter(([name]) => !hidden.includes(name)));
    const required = schema.required?.filter((name) => !hidden.includes(name));
    const toTool = (args: Record<string, unknown>) => {
      const mapped = { ...args };
      for (const name of hidden) delete mapped[name];
      // A fresh copy per call: a tool that changes its arguments cannot change the next call's.
      for (const [name, value] of fixed) mapped[name] = structuredClone(value);
      return mapped;
    };
    return shaped(tool, { ...schema.raw, properties, ...(required && { required }) }, toTool, (name) => name);
  };
}

interface ObjectSchema {
  readonly raw: JsonSchema;
  readonly properties: Record<string, unknown>;
  readonly required?: string[];
}

function objectSchema(tool: McpToolDefinition): ObjectSchema {
  const raw = tool.descriptor.inputSchema;
  const properties = isPlainObject(raw.properties) ? raw.properties : {};
  return { raw, properties, required: Array.isArray(raw.required) ? (raw.required as string[]) : undefined };
}

function unknownArgument(at: string, tool: McpToolDefinition, name: string, schema: ObjectSchema): McpConfigurationError {
  return new McpConfigurationError(Messages.unknownArgument(at, tool.site, name, Object.keys(schema.properties)));
}

/**
 * The tool with `inputSchema` shown. `toTool` maps what the caller sends to the arguments of the tool as it was
 * before this transform, in front of the mapping earlier transforms set; `toCaller` names one of those arguments as
 * the caller now sees it (the first segment of a failing path: `q.0` → `query.0`).
 */
function shaped(
  tool: McpToolDefinition,
  inputSchema: JsonSchema,
  toTool: (args: Record<string, unknown>) => Record<string, unknown>,
  toCaller: (name: string) => string,
): McpToolDefinition {
  const { toToolArgs: earlier, toCallerField: earlierField } = tool;
  const toCallerField = (field: string) => {
    const seen = earlierField ? earlierField(field) : field;
    const dot = seen.indexOf('.');
    return dot < 0 ? toCaller(seen) : `${toCaller(seen.slice(0, dot))}${seen.slice(dot)}`;
  };
  return {
    ...tool,
    descriptor: { ...tool.descriptor, inputSchema },
    toToolArgs: earlier ? (args) => earlier(toTool(args)) : toTool,
    toCallerField,
  };
}
