import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The one seam between Nest's HTTP adapters and the transports: express passes Node's request and response, Fastify
 * wrappers holding them as `raw`. The transports use Node's objects only, so both adapters behave alike and neither
 * is imported (both are optional peers).
 */

/** What Fastify's request adds around Node's: the raw message and the body its content-type parser produced. */
interface FastifyLikeRequest {
  raw: IncomingMessage;
  body?: unknown;
}

/** What Fastify's reply adds around Node's: the raw response, the headers set on the reply, and `hijack()`. */
interface FastifyLikeReply {
  raw: ServerResponse;
  sent: boolean;
  hijack(): unknown;
  getHeaders(): Record<string, number | string | string[] | undefined>;
}

/** Where the body an adapter already parsed is kept on Node's request (express keeps it as `body` itself). */
const PARSED_BODY = Symbol('mcp:parsed-body');

/** Node's objects carry `on`; the adapters' wrappers do not (they hold Node's as `raw`). */
function isWrapper(value: unknown): boolean {
  return typeof (value as { on?: unknown }).on !== 'function' && typeof (value as { raw?: unknown }).raw === 'object';
}

/** Node's request behind what the adapter passed, with the body Fastify already parsed kept on it ({@link parsedBodyOf}). */
export function nodeRequestOf(request: unknown): IncomingMessage {
  if (!isWrapper(request)) return request as IncomingMessage;
  const fastify = request as FastifyLikeRequest;
  if (fastify.body !== undefined) (fastify.raw as unknown as Record<symbol, unknown>)[PARSED_BODY] = fastify.body;
  return fastify.raw;
}

/**
 * Node's response behind what the adapter passed. Fastify's reply is hijacked (so it sends no second answer) and the
 * headers set on it (`@Header()`, `@fastify/cors`) copied over, since a hijacked reply no longer sends them.
 */
export function nodeResponseOf(response: unknown): ServerResponse {
  if (!isWrapper(response)) return response as ServerResponse;
  const reply = response as FastifyLikeReply;
  if (!reply.sent) {
    reply.hijack();
    if (!reply.raw.headersSent) {
      const headers = reply.getHeaders();
      for (const name in headers) if (headers[name] !== undefined) reply.raw.setHeader(name, headers[name]);
    }
  }
  return reply.raw;
}

/** The body an application-wide parser already read (express's `body-parser`, Fastify's content-type parser). */
export function parsedBodyOf(request: IncomingMessage): unknown {
  const fastifyParsed = (request as unknown as Record<symbol, unknown>)[PARSED_BODY];
  return fastifyParsed !== undefined ? fastifyParsed : (request as { body?: unknown }).body;
}

/** The path the client asked for, before any router rewrote `url` (express and middie keep `originalUrl`). */
export function requestPathOf(request: IncomingMessage): string {
  const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** One query parameter of the request (the first when repeated). */
export function queryParamOf(request: IncomingMessage, name: string): string | undefined {
  const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? undefined : (new URLSearchParams(url.slice(query + 1)).get(name) ?? undefined);
}
