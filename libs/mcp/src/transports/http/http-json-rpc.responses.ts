import type { Response } from 'express';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcId } from '../../core/json-rpc/json-rpc.types.js';

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
