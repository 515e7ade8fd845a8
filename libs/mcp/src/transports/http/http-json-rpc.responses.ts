import type { Response } from 'express';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcId } from '../../core/json-rpc/json-rpc.types.js';
import { errorCodeSpec, retryAfterHeader, type McpBuiltInErrorCode } from '../../core/errors/error-codes.js';

/** Sends one JSON value with an exact Content-Length (one encode per response). */
export function sendJson(response: Response, status: number, body: unknown, headers?: Record<string, string>): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  if (headers) for (const name in headers) response.setHeader(name, headers[name]);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
  response.end(bytes);
}

/** Refuses a whole HTTP request with a status and a JSON-RPC error body (id null unless known). */
export function sendHttpError(
  response: Response,
  status: number,
  message: string,
  options: { code?: number; id?: JsonRpcId | null; headers?: Record<string, string>; data?: unknown } = {},
): void {
  const error = { code: options.code ?? JsonRpcErrorCode.SERVER_ERROR, message, ...(options.data !== undefined && { data: options.data }) };
  sendJson(response, status, errorResponse(options.id ?? null, error), options.headers);
}

/** `Retry-After` of a refused stream: another stream of the tenant may end within seconds. */
export const STREAM_RETRY_AFTER_MS = 5_000;
/** `Retry-After` of a refused session: sessions free up as they expire or are deleted. */
export const SESSION_RETRY_AFTER_MS = 60_000;

/**
 * Refuses a whole HTTP request with a catalogue code: its HTTP status, JSON-RPC code, message (`detail` says what
 * exactly) and retry hint as `Retry-After` (`retryAfterMs` overrides the catalogue's).
 */
export function sendRefusal(
  response: Response,
  code: McpBuiltInErrorCode,
  detail?: string,
  options: { id?: JsonRpcId | null; headers?: Record<string, string>; retryAfterMs?: number } = {},
): void {
  const spec = errorCodeSpec(code);
  const retryAfterMs = options.retryAfterMs ?? spec.retryAfterMs;
  const headers = { ...(retryAfterMs !== undefined && { 'Retry-After': retryAfterHeader(retryAfterMs) }), ...options.headers };
  sendHttpError(response, spec.httpStatus, spec.message(detail), { code: spec.jsonRpcCode, id: options.id, headers });
}
