import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendHttpError } from './http-json-rpc.responses.js';

/**
 * Bounds the time the body of `request` may take: once `timeoutMs` pass before its last byte, the request is
 * answered 408 (when nothing was sent yet) and its connection closed. Express has Node's 300 s for the whole request,
 * Fastify none at all (`requestTimeout: 0`): a client sending one byte every few seconds would hold a socket and a
 * buffer for as long as it likes. Called at each adapter's earliest point (Fastify's `onRequest`, express's read).
 */
export function boundBodyTime(request: IncomingMessage, response: ServerResponse, timeoutMs: number): void {
  if (request.complete || timeoutMs <= 0) return;
  const timer = setTimeout(() => {
    if (request.complete) return;
    if (!response.headersSent)
      sendHttpError(response, 408, `Request Timeout: the body did not arrive within ${timeoutMs} ms`, { headers: { Connection: 'close' } });
    request.destroy();
  }, timeoutMs);
  timer.unref();
  const stop = () => clearTimeout(timer);
  request.once('end', stop).once('close', stop);
}
