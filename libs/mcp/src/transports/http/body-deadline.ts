import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendHttpError } from './http-json-rpc.responses.js';

/**
 * Answers 408 and closes the connection once `timeoutMs` pass before the body's last byte: express has Node's 300 s
 * for the whole request, Fastify none, so a client sending a byte every few seconds would hold a socket and a buffer.
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
