import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcRequest } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import type { EraRoute } from '../../eras/era-router.js';
import type { McpRev20260728Envelope } from '../../eras/rev-2026-07-28/envelope.js';
import { McpRev20260728Refusal, rev20260728HttpStatus } from '../../eras/rev-2026-07-28/refusals.js';
import { McpRev20260728Server, type McpRev20260728Channel } from '../../eras/rev-2026-07-28/rev-2026-07-28.server.js';
import { McpListenService, type ListenHandle } from '../../eras/rev-2026-07-28/subscriptions/listen.service.js';
import { McpStreamHub } from '../streams/stream-hub.js';
import { sendJson, sendRefusal, sendStatus, STREAM_RETRY_AFTER_MS } from './http-json-rpc.responses.js';
import { headerOf } from './incoming-json.js';
import { PostReply } from './post-reply.js';
import { principalOf } from './request-principal.js';
import type { SseWriter } from './sse-writer.js';
import { tenantOf } from '../../core/tenant.js';

/**
 * Streamable HTTP for what the era router gave to 2026-07-28. A request has no session: `Mcp-Session-Id` is
 * ignored and none is minted. Its answer is one JSON response, or an SSE stream when the request sends progress
 * or log lines first (and the client accepts SSE); the client closing the response cancels the request.
 */
@Injectable()
export class McpHttpRev20260728Handler {
  constructor(
    private readonly server: McpRev20260728Server,
    private readonly dispatcher: McpDispatcher,
    private readonly listens: McpListenService,
    private readonly hub: McpStreamHub,
    private readonly auth: McpAuthService,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse, route: Extract<EraRoute, { era: '2026-07-28' }>): Promise<void> {
    // A client notification needs nothing over HTTP (cancellation is closing the response); nor does a response.
    if (route.kind !== 'request') return sendStatus(response, 202);
    if (route.request.method === 'subscriptions/listen') return this.listen(request, response, route.request, route.envelope);
    await this.call(request, response, route.request, route.envelope);
  }

  private async call(
    request: IncomingMessage,
    response: ServerResponse,
    rpc: JsonRpcRequest,
    envelope: McpRev20260728Envelope,
  ): Promise<void> {
    const principal = principalOf(request);
    const canStream = /text\/event-stream/i.test(headerOf(request, 'accept') ?? '');
    const reply = new PostReply(response, this.hub, tenantOf(principal), undefined, canStream, undefined);
    const scope = `http-2026-07-28:${randomUUID()}`;
    let finished = false;
    const channel: McpRev20260728Channel = {
      transport: 'http',
      principal,
      send: canStream ? (message) => !finished && reply.send(message) : undefined,
      cancellationScope: scope,
      onInsufficientScope: (scopes) => reply.refuse(403, { 'WWW-Authenticate': this.auth.insufficientScopeChallenge(scopes) }),
      header: (name) => headerOf(request, name),
    };
    // Closing the response stream cancels the request (2026-07-28): the handler's signal aborts.
    response.on('close', () => {
      if (finished) return;
      reply.abandon();
      this.dispatcher.cancel(scope, rpc.id, 'response stream closed');
    });
    const answer = await this.server.serve({ request: rpc, envelope }, channel);
    finished = true;
    reply.finish(answer?.response, answer?.status ?? 200);
  }

  /** `subscriptions/listen`: an SSE stream that starts with the acknowledgement and stays open. */
  private async listen(
    request: IncomingMessage,
    response: ServerResponse,
    rpc: JsonRpcRequest,
    envelope: McpRev20260728Envelope,
  ): Promise<void> {
    const tenant = tenantOf(principalOf(request));
    if (!(await this.hub.hasRoomFor(tenant)))
      return sendRefusal(response, 'RATE_LIMITED', 'this tenant has too many open streams', {
        id: rpc.id,
        retryAfterMs: STREAM_RETRY_AFTER_MS,
      });
    let handle: ListenHandle | undefined;
    let writer: SseWriter | undefined;
    const stream = (): SseWriter => {
      if (!writer) {
        writer = this.hub.connect(response, tenant, () => handle?.close());
        writer.open();
      }
      return writer;
    };
    try {
      handle = this.listens.open(
        rpc.id,
        rpc.params ?? {},
        envelope,
        {
          send: (message) => void stream().event(JSON.stringify(message), { event: 'message' }),
          end: (final) => {
            stream().event(JSON.stringify(final), { event: 'message' });
            stream().end();
          },
        },
        this.server.identity,
      );
    } catch (error) {
      if (!(error instanceof McpProtocolError)) throw error;
      const status = error instanceof McpRev20260728Refusal ? error.status : rev20260728HttpStatus(error.toJsonRpcError());
      sendJson(response, status, errorResponse(rpc.id, error.toJsonRpcError()));
    }
  }
}
