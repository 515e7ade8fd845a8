import type { Request, Response } from 'express';
import { parseErrorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { sendJson, sendRefusal } from './http-json-rpc.responses.js';
import { readJsonBody } from './request-body.reader.js';

const NO_BODY = Symbol('no body');

/**
 * The JSON body of an MCP POST, or `NO_BODY` after answering the refusal itself: 415 for a non-JSON content
 * type, 413 over the limit, 400 with -32700 for unparsable JSON.
 */
export async function receiveJson(request: Request, response: Response, maxBytes: number): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test((request.headers['content-type'] ?? '').trim())) {
    sendRefusal(response, 'UNSUPPORTED_MEDIA_TYPE', 'send Content-Type: application/json');
    return NO_BODY;
  }
  const body = await readJsonBody(request, maxBytes);
  if (body.ok) return body.value;
  if (body.failure === 'too-large') sendRefusal(response, 'PAYLOAD_TOO_LARGE', `the limit is ${maxBytes} bytes`);
  else if (body.failure === 'aborted') response.destroy();
  else sendJson(response, 400, parseErrorResponse());
  return NO_BODY;
}

receiveJson.NO_BODY = NO_BODY;

/** The `method` of a single message, if it has one. */
export function methodOf(value: unknown): string | undefined {
  const method = typeof value === 'object' && value !== null ? (value as { method?: unknown }).method : undefined;
  return typeof method === 'string' ? method : undefined;
}

/** The `id` of a single message, or null. */
export function idOf(value: unknown): string | number | null {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A single header value (the first when repeated). */
export function headerOf(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
