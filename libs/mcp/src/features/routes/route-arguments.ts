import { ParseArrayPipe, ParseBoolPipe, ParseFloatPipe, ParseIntPipe, ParseUUIDPipe } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { SWAGGER_API_PARAMETERS } from '../../core/mcp.constants.js';
import type { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import type { JsonSchema } from '../../core/json-schema.types.js';
import { McpRouteMessages } from './mcp-route.messages.js';
import type { RouteParamBinding, RouteShape } from './route-metadata.js';
import { refusal, unknownProperty } from '../../execution/validation/refusal.js';

/** Where a tool argument goes in the request the route sees. */
type Part = 'params' | 'query' | 'body';

const PART_NAMES: Record<Part, string> = { params: 'path parameter', query: 'query parameter', body: 'body property' };
const SOURCE_OF: Partial<Record<RouteParamtypes, Part>> = {
  [RouteParamtypes.PARAM]: 'params',
  [RouteParamtypes.QUERY]: 'query',
  [RouteParamtypes.BODY]: 'body',
};

/** The request parts a call's arguments make: path parameters and query values as strings, as HTTP has them. */
export interface RouteRequestParts {
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  /** `{}` when the route reads a body, undefined otherwise (a GET has none). */
  readonly body: Record<string, unknown> | undefined;
}

/** A route's arguments: the flattened input schema and how a call's arguments split back into request parts. */
export interface RouteArguments {
  readonly inputSchema: JsonSchema;
  /** The request parts of the arguments (names the schema does not know were refused by `refuse`). */
  split(args: Record<string, unknown>): RouteRequestParts;
  /**
   * What a call's arguments cannot be, whatever the route's pipes say: a name the schema does not know (unless the
   * body is open), a key that would become the body's prototype, or a path or query value no URL can spell (an object,
   * such as `{"$ne": "x"}` for a scalar `@Query('name')`). Undefined when none.
   */
  refuse(args: Record<string, unknown>): { readonly fields: string[]; readonly message: string } | undefined;
}

/**
 * Builds a route's tool arguments: its path parameters (strings, or what `ParseIntPipe`… makes of them), the
 * properties of its query DTO (or single `@Query('name')` values) and of its body DTO (or `@Body('name')` values),
 * in one object; a name two of them claim is a boot error naming both. The route's own pipes still validate.
 */
export function routeArguments(route: RouteShape, method: object, site: string, dto: DtoSchemaFactory): RouteArguments {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const owners = new Map<string, Part>();
  let defs: Record<string, unknown> | undefined;
  let openBody = false;
  const claim = (name: string, part: Part, schema: JsonSchema, isRequired: boolean) => {
    const owner = owners.get(name);
    if (owner && owner !== part)
      throw new McpConfigurationError(McpRouteMessages.argumentClash(site, name, PART_NAMES[owner], PART_NAMES[part]));
    owners.set(name, part);
    properties[name] = { ...properties[name], ...schema };
    if (isRequired) required.add(name);
  };

  for (const name of route.pathParams) claim(name, 'params', { type: 'string' }, true);
  for (const param of route.params) {
    const part = SOURCE_OF[param.type];
    if (!part) continue;
    if (typeof param.data === 'string') {
      claim(param.data, part, scalarSchema(param), part === 'params');
      continue;
    }
    const document = dtoSchema(param, dto);
    if (!document) {
      // An untyped whole body (`@Body() body: unknown`): its properties are whatever the caller sends.
      if (part === 'body') openBody = true;
      continue;
    }
    if (part === 'body' && document.additionalProperties !== false) openBody = true;
    const listed = new Set((document.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((document.properties ?? {}) as Record<string, JsonSchema>))
      claim(name, part, schema, listed.has(name) || part === 'params');
    if (document.$defs) defs = { ...defs, ...(document.$defs as Record<string, unknown>) };
  }
  describeParameters(method, properties);

  const inputSchema: JsonSchema = { type: 'object', properties };
  if (required.size > 0) inputSchema.required = [...required];
  inputSchema.additionalProperties = openBody;
  if (defs) inputSchema.$defs = defs;
  const reads = (type: RouteParamtypes) => route.params.some((param) => param.type === type);
  const hasBody = reads(RouteParamtypes.BODY) || reads(RouteParamtypes.REQUEST);

  return {
    inputSchema,
    split(args) {
      const parts: RouteRequestParts = { params: {}, query: {}, body: hasBody ? {} : undefined };
      for (const [name, value] of Object.entries(args)) {
        const part = owners.get(name) ?? (openBody ? 'body' : undefined);
        // An absent query value or path parameter: null has no query-string spelling.
        if (part === undefined || (value === null && part !== 'body')) continue;
        else if (part === 'params') parts.params[name] = String(value);
        else if (part === 'query') parts.query[name] = asQueryValue(value);
        // A name goes to the body only when the route reads one.
        else parts.body![name] = value;
      }
      return parts;
    },
    refuse(args) {
      const unknown: string[] = [];
      const unspellable: string[] = [];
      for (const name of Object.keys(args)) {
        const part = owners.get(name);
        if (POISONING_KEYS.has(name) || (part === undefined && !openBody)) unknown.push(name);
        else if ((part === 'params' || part === 'query') && !spellable(args[name], properties[name]!, part)) unspellable.push(name);
      }
      if (unknown.length > 0) return refusal(unknown.map(unknownProperty));
      if (unspellable.length > 0)
        return refusal(
          unspellable.map((name) => ({ path: name, reasons: [`${name} must be a value a URL can carry (a string, number or boolean)`] })),
        );
      return undefined;
    },
  };
}

/** Keys a plain object assignment turns into its prototype (or a path to it): never a body property. */
const POISONING_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a path parameter or query value has a URL spelling: a scalar, or for an array-typed query value, a list of them. */
function spellable(value: unknown, schema: JsonSchema, part: 'params' | 'query'): boolean {
  if (value === null || typeof value !== 'object') return true;
  const listed = schema.type === 'array' || schema.type === undefined;
  return part === 'query' && listed && Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object');
}

/** The schema of a DTO-typed whole `@Param()`, `@Query()` or `@Body()`; undefined when its type is no class. */
function dtoSchema(param: RouteParamBinding, dto: DtoSchemaFactory): JsonSchema | undefined {
  const type = param.metatype;
  if (typeof type !== 'function' || PRIMITIVES.has(type)) return undefined;
  return dto.forClass(type as new (...args: never[]) => object);
}

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Object, Array, Promise]);

/** A single path parameter or query value: typed by its parse pipe, else by its design type, else a string. */
function scalarSchema(param: RouteParamBinding): JsonSchema {
  const pipes = param.pipes;
  const has = (pipe: abstract new (...args: never[]) => unknown) =>
    pipes.some((candidate) => candidate === pipe || candidate instanceof pipe);
  if (has(ParseIntPipe)) return { type: 'integer' };
  if (has(ParseFloatPipe)) return { type: 'number' };
  if (has(ParseBoolPipe)) return { type: 'boolean' };
  if (has(ParseUUIDPipe)) return { type: 'string', format: 'uuid' };
  if (has(ParseArrayPipe)) return { type: 'array' };
  if (param.metatype === Number) return { type: 'number' };
  if (param.metatype === Boolean) return { type: 'boolean' };
  return { type: 'string' };
}

/** `@ApiParam()` / `@ApiQuery()` descriptions and examples, read by key (swagger stays optional). */
function describeParameters(method: object, properties: Record<string, JsonSchema>): void {
  const documented = (Reflect.getMetadata(SWAGGER_API_PARAMETERS, method) as Array<Record<string, unknown>> | undefined) ?? [];
  for (const { name, description, example } of documented) {
    const property = typeof name === 'string' ? properties[name] : undefined;
    if (!property) continue;
    if (typeof description === 'string' && property.description === undefined) property.description = description;
    if (example !== undefined && property.examples === undefined) property.examples = [example];
  }
}

/** A query value as a query string carries it: scalars as strings, lists of them too (objects were refused). */
function asQueryValue(value: unknown): unknown {
  return Array.isArray(value) ? value.map((item) => String(item)) : String(value);
}
