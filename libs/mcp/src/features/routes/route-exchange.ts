import { credentialHeaders } from '../../core/caller-headers.js';
import type { McpCaller } from '../../core/mcp-caller.js';
import { McpToolHttpResponse } from '../../execution/tool-http-exchange.js';
import type { RouteShape } from './route-metadata.js';
import type { RouteRequestParts } from './route-arguments.js';

/** The request a route tool's handler sees: what Express and Fastify requests both offer its guards and pipes. */
export interface RouteRequest {
  readonly method: string;
  readonly url: string;
  readonly originalUrl: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  body: unknown;
  /** The caller's address (`http.trustProxy` decides, as for the MCP request); undefined off HTTP. */
  readonly ip: string | undefined;
  readonly ips: readonly string[];
  /** Fastify code reads `request.raw`; here it is the request itself. */
  readonly raw: RouteRequest;
  /** Set by the app's guards (`request.user = …`), as on a REST request. */
  [key: string]: unknown;
}

/**
 * Stands in for the HTTP response while a route runs as a tool: besides the headers a guard sets, it records what an
 * exception filter (or an interceptor) writes, through the Express (`status().json()`) or Fastify (`code().send()`)
 * spelling, so the outcome can be told from what REST would have sent.
 */
export class RouteResponse extends McpToolHttpResponse {
  /** Set once a filter or interceptor sent a body. */
  sent = false;
  body: unknown;

  get headersSent(): boolean {
    return this.sent;
  }

  json(body: unknown): this {
    return this.send(body);
  }

  send(body?: unknown): this {
    this.body = body;
    this.sent = true;
    return this;
  }

  end(body?: unknown): this {
    return this.send(body);
  }

  set(name: string, value: unknown): this {
    return this.header(name, value);
  }

  type(value: string): this {
    return this.header('content-type', value);
  }

  removeHeader(name: string): this {
    this.headers.delete(name.toLowerCase());
    return this;
  }
}

/**
 * The request of one call: its parts, the URL REST would have had, and of the caller its credential headers, its
 * address and its principal as `user` (a guard may replace it, as Passport does).
 */
export function routeRequest(route: RouteShape, parts: RouteRequestParts, caller: McpCaller | undefined): RouteRequest {
  const path = route.path.replace(/:([A-Za-z_$][\w$]*)/g, (_match, name: string) => encodeURIComponent(parts.params[name] ?? ''));
  const search = queryString(parts.query);
  const url = search ? `${path}?${search}` : path;
  const headers: Record<string, string> = { accept: 'application/json', ...credentialHeaders(caller) };
  if (parts.body !== undefined) headers['content-type'] = 'application/json';
  const request = {
    method: route.verb,
    url,
    originalUrl: url,
    path,
    headers,
    params: parts.params,
    query: parts.query,
    body: parts.body,
    ip: caller?.ip,
    ips: caller?.ips ?? [],
  } as RouteRequest;
  if (caller?.principal) request.user = caller.principal;
  // Express helpers and Fastify's `raw`, out of the enumerable shape the handler may log or serialise.
  const header = (name: string) => headers[name.toLowerCase()];
  Object.defineProperties(request, {
    raw: { value: request },
    get: { value: header },
    header: { value: header },
    socket: { value: { remoteAddress: caller?.ip } },
  });
  return request;
}

function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') search.append(name, item);
  }
  return search.toString();
}
