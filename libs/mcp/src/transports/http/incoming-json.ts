import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseErrorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { sendJson, sendRefusal } from './http-json-rpc.responses.js';
import { bodyArrived, boundBodyTime } from './body-deadline.js';
import { readJsonBody, type BodyReadResult } from './request-body.reader.js';

const NO_BODY = Symbol('no body');
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The JSON body of an MCP POST, or `NO_BODY` once refused (415, 413, 400 with -32700); a promise only when still to
 * be read from the stream (no tick per request for a body already parsed).
 */
export function receiveJson(request: IncomingMessage, response: ServerResponse, maxBytes: number, timeoutMs: number): unknown {
  const type = request.headers['content-type'];
  if (type !== 'application/json' && !JSON_CONTENT_TYPE.test((type ?? '').trim())) {
    sendRefusal(response, 'UNSUPPORTED_MEDIA_TYPE', 'send Content-Type: application/json');
    return NO_BODY;
  }
  // Still to be read from the stream (express without a body parser): its time is bounded from here.
  if (!request.readableEnded) boundBodyTime(request, response, timeoutMs);
  const body = readJsonBody(request, maxBytes);
  return body instanceof Promise
    ? body.then((read) => bodyOrRefusal(read, request, response, maxBytes))
    : bodyOrRefusal(body, request, response, maxBytes);
}

/** The value read, or `NO_BODY` once the failure is answered. */
function bodyOrRefusal(body: BodyReadResult, request: IncomingMessage, response: ServerResponse, maxBytes: number): unknown {
  bodyArrived(request);
  if (body.ok) return body.value;
  if (body.failure === 'too-large') sendRefusal(response, 'PAYLOAD_TOO_LARGE', `the limit is ${maxBytes} bytes`);
  else if (body.failure === 'aborted') response.destroy();
  else sendJson(response, 400, parseErrorResponse());
  return NO_BODY;
}

receiveJson.NO_BODY = NO_BODY;

/** A single header value (the first when repeated). */
export function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
