import type { ServerResponse } from 'node:http';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcId } from '../../core/json-rpc/json-rpc.types.js';
import { errorCodeSpec, retryAfterHeader, type McpBuiltInErrorCode } from '../../core/errors/error-codes.js';

/** One JSON value with an exact Content-Length; a string body makes head and body one socket write (a Buffer: a `writev`). */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const text = JSON.stringify(body);
  if (headers) for (const name in headers) response.setHeader(name, headers[name]);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text, 'utf8') });
  response.end(text, 'utf8');
}

/** Ends the response with a status and no body (202 for notifications, 200 for DELETE, 304...). */
export function sendStatus(response: ServerResponse, status: number): void {
  response.statusCode = status;
  response.end();
}

/** Sends a text body (HTML, plain text, the card's JSON) with its headers and an exact Content-Length. */
export function sendBody(response: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body: string): void {
  for (const name in headers) response.setHeader(name, headers[name]);
  response.writeHead(status, { 'Content-Length': Buffer.byteLength(body, 'utf8') });
  response.end(body, 'utf8');
}

/** Refuses a whole HTTP request with a status and a JSON-RPC error body (id null unless known). */
export function sendHttpError(
  response: ServerResponse,
  status: number,
  message: string,
  options: { code?: number; id?: JsonRpcId | null; headers?: Record<string, string>; data?: unknown } = {},
): void {
  const error = { code: options.code ?? JsonRpcErrorCode.SERVER_ERROR, message, ...(options.data !== undefined && { data: options.data }) };
  sendJson(response, status, errorResponse(options.id ?? null, error), options.headers);
}

/** The error of a REST route (a job's `poll_url`): `{ "error": { "code", "message" } }`, as no JSON-RPC request was made. */
export function sendRestError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } }, { 'Cache-Control': 'no-store' });
}

/** Refuses a whole HTTP request with a catalogue code: its status, JSON-RPC code, message and `Retry-After`. */
export function sendRefusal(
  response: ServerResponse,
  code: McpBuiltInErrorCode,
  detail?: string,
  options: { id?: JsonRpcId | null; headers?: Record<string, string>; retryAfterMs?: number } = {},
): void {
  const spec = errorCodeSpec(code);
  const retryAfterMs = options.retryAfterMs ?? spec.retryAfterMs;
  const headers = { ...(retryAfterMs !== undefined && { 'Retry-After': retryAfterHeader(retryAfterMs) }), ...options.headers };
  sendHttpError(response, spec.httpStatus, spec.message(detail), { code: spec.jsonRpcCode, id: options.id, headers });
}

/** 429 at `limits.maxStreamsPerTenant`; `Retry-After` 5 s: another stream of the tenant may end within seconds. */
export function sendTooManyStreams(response: ServerResponse, id?: JsonRpcId): void {
  sendRefusal(response, 'RATE_LIMITED', 'this tenant has too many open streams', { id, retryAfterMs: 5_000 });
}

/** 429 at the tenant's session cap; `Retry-After` 60 s: sessions free up as they expire or are deleted. */
export function sendTooManySessions(response: ServerResponse, id?: JsonRpcId | null): void {
  sendRefusal(response, 'RATE_LIMITED', 'this tenant has too many open sessions', { id, retryAfterMs: 60_000 });
}

/** 404 with `SESSION_NOT_FOUND`: the client starts a new session. */
export function sendSessionNotFound(response: ServerResponse, message = 'Session not found'): void {
  sendHttpError(response, 404, message, { code: JsonRpcErrorCode.SESSION_NOT_FOUND });
}
