import type { ExternalContextCreator } from '@nestjs/core';
import { callerOf } from '../core/caller-headers.js';
import type { McpCaller } from '../core/mcp-caller.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';

/**
 * What `context.switchToHttp().getRequest()` returns to a tool's guards and interceptors: the MCP request as an
 * Express- or Fastify-shaped request, so the app's own guards (Passport's `AuthGuard`, `ThrottlerGuard`, an API-key
 * guard) run unchanged. `user` starts as the principal; a guard may set it, as on a REST request.
 */
export interface McpToolHttpRequest {
  readonly method: string;
  readonly url: string;
  readonly originalUrl: string;
  readonly path: string;
  /** Every header of the MCP request (lower-case names); over stdio the launch token as `authorization`. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly ip: string | undefined;
  readonly ips: readonly string[];
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  /** The tool's arguments as sent. */
  readonly body: unknown;
  user: unknown;
  [key: string]: unknown;
}

/**
 * The response a tool's guards and interceptors may write headers to (`ThrottlerGuard` sets `X-RateLimit-*`): an MCP
 * answer has no HTTP headers of its own to carry them, so they are kept here and not sent.
 */
export class McpToolHttpResponse {
  statusCode = 200;
  readonly headers = new Map<string, unknown>();

  /** Fastify code reads `reply.raw`. */
  get raw(): this {
    return this;
  }

  header(name: string, value: unknown): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  setHeader(name: string, value: unknown): this {
    return this.header(name, value);
  }

  getHeader(name: string): unknown {
    return this.headers.get(name.toLowerCase());
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  code(code: number): this {
    return this.status(code);
  }
}

interface Exchange {
  readonly request: McpToolHttpRequest;
  readonly response: McpToolHttpResponse;
}

/** One exchange per call, shared by its guards and interceptors (a `user` a guard set is the interceptors' too). */
const exchanges = new WeakMap<object, Exchange>();

const NO_CALLER: Omit<McpCaller, 'transport' | 'tenant'> = { headers: {}, method: 'POST', url: '', ips: [] };

/** The call's exchange, built when a guard or interceptor first asks for it. */
function exchangeOf(args: unknown[]): Exchange {
  const context = args[1] as McpToolContext | undefined;
  const key = context ?? args;
  let exchange = exchanges.get(key);
  if (!exchange) {
    const caller = (context && callerOf(context)) ?? NO_CALLER;
    const request = {
      method: caller.method,
      url: caller.url,
      originalUrl: caller.url,
      path: caller.url.split('?', 1)[0]!,
      headers: caller.headers,
      ip: caller.ip,
      ips: caller.ips,
      params: {},
      query: {},
      body: args[0],
      user: context?.principal,
    } as McpToolHttpRequest;
    const header = (name: string) => caller.headers[name.toLowerCase()];
    // Express helpers, Fastify's `raw` and the socket a guard may read the address from, out of the enumerable shape.
    Object.defineProperties(request, {
      raw: { value: request },
      get: { value: header },
      header: { value: header },
      socket: { value: { remoteAddress: caller.ip } },
    });
    exchange = { request, response: new McpToolHttpResponse() };
    exchanges.set(key, exchange);
  }
  return exchange;
}

const NEXT = () => undefined;

interface HostLike {
  getArgs(): unknown[];
}

/** Gives an `mcp` execution context an HTTP side: the call's request and response, built on first use. */
function withHttpSide<T extends HostLike>(host: T): T {
  Object.defineProperty(host, 'switchToHttp', {
    value(this: T) {
      const args = this.getArgs();
      return Object.assign(this, {
        getRequest: () => exchangeOf(args).request,
        getResponse: () => exchangeOf(args).response,
        getNext: () => NEXT,
      });
    },
  });
  return host;
}

interface ContextConsumer {
  createContext(args: unknown[], instance: object, callback: unknown): HostLike;
}

/**
 * `creator` whose guards and interceptors get an execution context with an HTTP side. Nest's consumers build the
 * context only when there is a guard or an interceptor to run; the request itself only when one reads it.
 */
export function withToolHttpSide(creator: ExternalContextCreator): ExternalContextCreator {
  const consumers = creator as unknown as { guardsConsumer: ContextConsumer; interceptorsConsumer: ContextConsumer };
  const extend = (base: ContextConsumer): ContextConsumer =>
    Object.create(base, {
      createContext: {
        value: (args: unknown[], instance: object, callback: unknown) => withHttpSide(base.createContext(args, instance, callback)),
      },
    }) as ContextConsumer;
  return Object.create(creator, {
    guardsConsumer: { value: extend(consumers.guardsConsumer) },
    interceptorsConsumer: { value: extend(consumers.interceptorsConsumer) },
  }) as ExternalContextCreator;
}
