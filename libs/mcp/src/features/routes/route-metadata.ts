import { RequestMethod } from '@nestjs/common';
import {
  METHOD_METADATA,
  PATH_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  ROUTE_ARGS_METADATA,
  SSE_METADATA,
} from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpToolAnnotations } from '../tools/mcp-tool-options.interface.js';
import { McpRouteMessages } from './mcp-route.messages.js';

/** The verbs a tool can stand for; the others (HEAD, OPTIONS, ALL, WebDAV…) are refused at boot. */
const VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type McpRouteVerb = (typeof VERBS)[number];

/** The hints a verb gives a tool (MCP tool annotations), a controller route's or an OpenAPI operation's. */
export const VERB_HINTS: Readonly<Partial<Record<string, McpToolAnnotations>>> = {
  GET: { readOnlyHint: true },
  HEAD: { readOnlyHint: true },
  DELETE: { destructiveHint: true },
  PUT: { idempotentHint: true },
};

/** One decorated parameter of a route handler (`@Param('id', ParseIntPipe)`, `@Body()`…). */
export interface RouteParamBinding {
  readonly type: RouteParamtypes;
  readonly index: number;
  /** The decorator's property name (`@Query('status')`); undefined for the whole object. */
  readonly data: unknown;
  readonly pipes: readonly unknown[];
  /** The parameter's design type (`design:paramtypes`). */
  readonly metatype: unknown;
}

/** What a controller handler is as a route: verb, path, path parameters and decorated parameters. */
export interface RouteShape {
  readonly verb: McpRouteVerb;
  /** `/tickets/:id`: the controller's and the handler's first paths (without the app's global prefix). */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly params: readonly RouteParamBinding[];
}

/** Why a parameter type keeps a handler from being a tool. */
const UNSUPPORTED_PARAMS: ReadonlyMap<number, string> = new Map([
  [RouteParamtypes.RESPONSE, 'writes its own response (@Res())'],
  [RouteParamtypes.NEXT, 'hands the request on with @Next()'],
  [RouteParamtypes.FILE, 'takes a file upload (@UploadedFile())'],
  [RouteParamtypes.FILES, 'takes file uploads (@UploadedFiles())'],
  [RouteParamtypes.RAW_BODY, 'reads the raw request body (@RawBody())'],
]);

/** Whether a method of a controller is a route handler (`@Get()`, `@Post()`…). */
export function isRouteHandler(method: unknown): boolean {
  return typeof method === 'function' && Reflect.getMetadata(PATH_METADATA, method) !== undefined;
}

/**
 * Reads a route handler's shape from Nest's own metadata, refusing (MCP_ERR_ROUTE_UNSUPPORTED) what a tool cannot
 * do: write the response itself, take uploads, stream SSE, render or redirect, answer a verb other than the five.
 */
export function readRoute(controller: object, prototype: object, methodName: string, site: string): RouteShape {
  const method = (prototype as Record<string, unknown>)[methodName] as object;
  const refuse = (reason: string) => new McpConfigurationError(McpRouteMessages.unsupported(site, reason));
  if (Reflect.getMetadata(SSE_METADATA, method)) throw refuse('streams server-sent events (@Sse())');
  if (Reflect.getMetadata(RENDER_METADATA, method) !== undefined) throw refuse('renders a template (@Render())');
  if (Reflect.getMetadata(REDIRECT_METADATA, method) !== undefined) throw refuse('redirects (@Redirect())');
  const requested = Reflect.getMetadata(METHOD_METADATA, method) as number;
  const verb = VERBS.find((name) => RequestMethod[name] === requested);
  if (!verb) throw refuse(`answers ${RequestMethod[requested] ?? 'an unknown verb'}`);

  const paramTypes = (Reflect.getMetadata('design:paramtypes', prototype, methodName) as unknown[] | undefined) ?? [];
  const recorded = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {}) as Record<
    string,
    { index: number; data?: unknown; pipes?: unknown[] }
  >;
  const params: RouteParamBinding[] = [];
  for (const [key, { index, data, pipes }] of Object.entries(recorded)) {
    const type = Number(key.split(':')[0]);
    // Custom decorators (`createParamDecorator`) read the request themselves: nothing to map.
    if (Number.isNaN(type)) continue;
    const reason = UNSUPPORTED_PARAMS.get(type);
    if (reason) throw refuse(reason);
    params.push({ type, index, data, pipes: pipes ?? [], metatype: paramTypes[index] });
  }
  const path = joinPaths(firstPath(Reflect.getMetadata(PATH_METADATA, controller)), firstPath(Reflect.getMetadata(PATH_METADATA, method)));
  return { verb, path, pathParams: pathParamsOf(path), params: params.sort((a, b) => a.index - b.index) };
}

function firstPath(value: unknown): string {
  const path = Array.isArray(value) ? value[0] : value;
  return typeof path === 'string' ? path : '';
}

function joinPaths(...parts: string[]): string {
  const joined = parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  return `/${joined}`;
}

/** `:id` segments of a path (`{/:id}` optional ones included). */
function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_$][\w$]*)/g)].map((match) => match[1]!);
}
