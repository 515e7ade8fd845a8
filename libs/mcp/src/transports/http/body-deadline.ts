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
 * Bounds the time the body of `request` may take: once `timeoutMs` pass before its last byte, the request is
 * answered 408 (when nothing was sent yet) and its connection closed. Express has Node's 300 s for the whole request,
 * Fastify none at all (`requestTimeout: 0`): a client sending one byte every few seconds would hold a socket and a
 * buffer for as long as it likes. Called at each adapter's earliest point (Fastify's `onRequest`, express's read).
 *
 * One sweep every {@link BODY_SWEEP_MS} serves every request (a timer and two listeners per request cost the hot path
 * more than the bound is worth). The reader forgets a request as soon as its body is in ({@link bodyArrived}): one
 * kept until the next sweep would outlive a young-generation collection and be copied to the old generation.
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
