import { httpCaller } from '../../core/mcp-caller.js';
import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import type { McpAnswer } from '../../core/mcp-channel.interface.js';
import type { JsonRpcRequest } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import type { McpRev20260728EngineChannel } from '../../eras/rev-2026-07-28/rev-2026-07-28.engine.js';
import { McpStreamHub } from '../streams/stream-hub.js';
import { sendTooManyStreams } from './http-json-rpc.responses.js';
import { headerOf } from './incoming-json.js';
import { PostReply } from './post-reply.js';
import type { SseWriter } from './sse-writer.js';
import { tenantOf } from '../../core/tenant.js';

/** The 2026-07-28 channel of one POST, and how its answer is written. */
export interface McpHttpRev20260728Exchange {
  readonly channel: McpRev20260728EngineChannel;
  /** Writes the engine's answer: one JSON response, or the end of the SSE stream the request opened. */
  finish(answer: McpAnswer & { kind: 'reply' }): void;
}

/**
 * Streamable HTTP's framing of a 2026-07-28 request: no session (`Mcp-Session-Id` ignored); one JSON response, or an
 * SSE stream once it sends progress or logs, or a `subscriptions/listen`. Closing the response cancels the request.
 */
@Injectable()
export class McpHttpRev20260728Handler {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly hub: McpStreamHub,
    private readonly auth: McpAuthService,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  exchange(
    request: IncomingMessage,
    response: ServerResponse,
    principal: McpPrincipal | undefined,
    rpc?: JsonRpcRequest,
  ): McpHttpRev20260728Exchange {
    const tenant = tenantOf(principal);
    const canStream = /text\/event-stream/i.test(headerOf(request, 'accept') ?? '');
    const reply = new PostReply(response, this.hub, tenant, undefined, canStream, undefined);
    const scope = `http-2026-07-28:${randomUUID()}`;
    let finished = false;
    // Closing the response stream cancels the request (2026-07-28): the handler's signal aborts.
    if (rpc)
      response.on('close', () => {
        if (finished) return;
        reply.abandon();
        this.dispatcher.cancel(scope, rpc.id, 'response stream closed');
      });
    return {
      channel: {
        transport: 'http',
        principal,
        send: canStream ? (message) => !finished && reply.send(message) : undefined,
        cancellationScope: scope,
        onInsufficientScope: (scopes) => reply.refuse(403, { 'WWW-Authenticate': this.auth.insufficientScopeChallenge(scopes) }),
        header: (name) => headerOf(request, name),
        caller: httpCaller(request, principal, 'http', this.options.http.trustProxy),
        listenStream: (close) => this.listenStream(response, tenant, rpc!, close),
      },
      finish: (answer) => {
        finished = true;
        reply.finish(answer.reply as never, answer.status ?? 200);
      },
    };
  }

  /** The SSE stream of a `subscriptions/listen`, opened at its first message; refused when the tenant has too many. */
  private async listenStream(response: ServerResponse, tenant: string, rpc: JsonRpcRequest, close: () => void) {
    if (!(await this.hub.hasRoomFor(tenant))) return void sendTooManyStreams(response, rpc.id);
    let writer: SseWriter | undefined;
    const send = (message: unknown) => {
      if (!writer) (writer = this.hub.connect(response, tenant, close)).open();
      writer.event(JSON.stringify(message), { event: 'message' });
    };
    return {
      send,
      end: (final: unknown) => {
        send(final);
        writer!.end();
      },
    };
  }
}
