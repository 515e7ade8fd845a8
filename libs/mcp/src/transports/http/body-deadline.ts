import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendHttpError } from './http-json-rpc.responses.js';

/** How often the bodies still arriving are checked: a late body is answered at most this long after its deadline. */
const BODY_SWEEP_MS = 100;

interface PendingBody {
  readonly response: ServerResponse;
  readonly deadline: number;
  readonly timeoutMs: number;
}

const pending = new Map<IncomingMessage, PendingBody>();
let sweeper: NodeJS.Timeout | undefined;

/**
 * Answers 408 and closes the connection once `timeoutMs` pass before the body's last byte: express has Node's 300 s
 * for the whole request, Fastify none, so a client sending a byte every few seconds would hold a socket and a buffer.
 * One sweep serves every request (a timer and two listeners each cost the hot path more); the reader forgets a body
 * once it is in ({@link bodyArrived}), so no request outlives a young-generation collection here.
 */
export function boundBodyTime(request: IncomingMessage, response: ServerResponse, timeoutMs: number): void {
  if (request.complete || timeoutMs <= 0) return;
  pending.set(request, { response, deadline: Date.now() + timeoutMs, timeoutMs });
  sweeper ??= setInterval(sweep, BODY_SWEEP_MS).unref();
}

/** The body of `request` is read: its bound is over. */
export function bodyArrived(request: IncomingMessage): void {
  pending.delete(request);
}

function sweep(): void {
  const now = Date.now();
  for (const [request, body] of pending) {
    if (request.complete || request.destroyed) pending.delete(request);
    else if (now >= body.deadline) {
      pending.delete(request);
      if (!body.response.headersSent)
        sendHttpError(body.response, 408, `Request Timeout: the body did not arrive within ${body.timeoutMs} ms`, {
          headers: { Connection: 'close' },
        });
      request.destroy();
    }
  }
  if (pending.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}
