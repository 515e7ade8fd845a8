import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from './mcp-principal.interface.js';
import { tenantOf } from './tenant.js';

/**
 * Who is calling, as the transport saw one message: built once per message and carried with the call (request
 * context → tool context), never kept on a session or shared between callers. Plain data: an HTTP+SSE message
 * forwarded over the bus to the instance holding its stream carries it as JSON.
 */
export interface McpCaller {
  readonly transport: 'http' | 'sse' | 'stdio' | 'memory';
  readonly principal?: McpPrincipal;
  readonly tenant: string;
  /** Every request header, names lower-cased; over stdio only the launch token, as `authorization: Bearer …`. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** `POST` for a message over HTTP; the same for stdio and in-memory messages, which have no verb of their own. */
  readonly method: string;
  /** The request's path and query over HTTP; empty elsewhere. */
  readonly url: string;
  /** The client's address ({@link clientAddressOf}); none off HTTP. */
  readonly ip?: string;
  /** With `http.trustProxy`, the `X-Forwarded-For` addresses, client first (Express's `req.ips`); else empty. */
  readonly ips: readonly string[];
}

const NO_ADDRESSES: readonly string[] = Object.freeze([]);

/** The caller of a message received over HTTP (Streamable HTTP or the HTTP+SSE message endpoint). */
export function httpCaller(
  request: IncomingMessage,
  principal: McpPrincipal | undefined,
  transport: 'http' | 'sse',
  trustProxy: boolean,
): McpCaller {
  const ips = trustProxy ? forwardedFor(request.headers['x-forwarded-for']) : NO_ADDRESSES;
  // Express keeps the mount-free URL in `originalUrl`; a bare Node or Fastify request has it in `url`.
  const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '';
  return {
    transport,
    principal,
    tenant: tenantOf(principal),
    headers: request.headers,
    method: request.method ?? 'POST',
    url,
    ip: ips.length > 0 ? ips[ips.length - 1]!.slice(0, 64) : request.socket?.remoteAddress,
    ips,
  };
}

/**
 * The address a request came from: the socket's peer or, with `http.trustProxy`, the last `X-Forwarded-For` entry,
 * the one the proxy in front added itself (the entries before it are the client's word, so a guard or a budget keyed
 * by the first could be dodged by sending the header). Cut to 64 characters, so keys built from it stay small.
 */
export function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const ips = forwardedFor(request.headers['x-forwarded-for']);
    if (ips.length > 0) return ips[ips.length - 1]!.slice(0, 64);
  }
  return request.socket?.remoteAddress ?? 'unknown';
}

/**
 * The caller of a stdio or in-memory connection: its principal and, over stdio, its launch token; `headers` are the
 * request headers an in-process test client presents (names lower-cased here, the launch token over them).
 */
export function connectionCaller(
  transport: 'stdio' | 'memory',
  principal: McpPrincipal | undefined,
  token?: string,
  headers?: Readonly<Record<string, string>>,
): McpCaller {
  const presented: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) presented[name.toLowerCase()] = value;
  if (principal && token) presented.authorization = `Bearer ${token}`;
  return {
    transport,
    principal,
    tenant: tenantOf(principal),
    headers: presented,
    method: 'POST',
    url: '',
    ips: NO_ADDRESSES,
  };
}

/** The addresses of an `X-Forwarded-For` header (repeated headers joined), client first. */
function forwardedFor(value: string | string[] | undefined): readonly string[] {
  if (value === undefined) return NO_ADDRESSES;
  const list = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return list.length === 0 ? NO_ADDRESSES : list;
}
