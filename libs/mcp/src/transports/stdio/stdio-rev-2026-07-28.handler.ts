import { Injectable } from '@nestjs/common';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import type { McpRev20260728Envelope } from '../../eras/rev-2026-07-28/envelope.js';
import { isPlainObject } from '../../core/plain-object.js';
import { McpRev20260728Server } from '../../eras/rev-2026-07-28/rev-2026-07-28.server.js';
import { McpListenService, type ListenHandle } from '../../eras/rev-2026-07-28/subscriptions/listen.service.js';

/** What one stdio connection keeps for 2026-07-28: where its requests are cancelled, its open listens. */
export interface McpStdioRev20260728State {
  /** Where this connection's 2026-07-28 requests are cancelled (`notifications/cancelled`). */
  readonly cancellationScope: string;
  /** Open `subscriptions/listen`, by request id. */
  readonly listens: Map<string, ListenHandle>;
}

/** The stdio connection's side of one message: who sent it and where answers go (stdout). */
export interface McpStdioLink {
  readonly principal?: McpPrincipal;
  readonly send: (message: JsonRpcMessage) => void;
}

/**
 * Serves, over stdio, what the era router gave to 2026-07-28: requests (a listen stays open on stdout until
 * cancelled or stdin ends) and notifications (`notifications/cancelled` ends a listen or cancels a request).
 */
@Injectable()
export class McpStdioRev20260728Handler {
  private connections = 0;

  constructor(
    private readonly server: McpRev20260728Server,
    private readonly dispatcher: McpDispatcher,
    private readonly listens: McpListenService,
  ) {}

  openConnection(): McpStdioRev20260728State {
    return { cancellationScope: `stdio-2026-07-28:${++this.connections}`, listens: new Map() };
  }

  /** Ends the connection's listens (stdin closed). */
  closeConnection(state: McpStdioRev20260728State): void {
    for (const listen of state.listens.values()) listen.close();
    state.listens.clear();
  }

  async request(
    request: JsonRpcRequest,
    envelope: McpRev20260728Envelope,
    state: McpStdioRev20260728State,
    link: McpStdioLink,
  ): Promise<void> {
    if (request.method === 'subscriptions/listen') return this.listen(request, envelope, state, link);
    const answer = await this.server.serve(
      { request, envelope },
      { transport: 'stdio', principal: link.principal, send: link.send, cancellationScope: state.cancellationScope },
    );
    if (answer) link.send(answer.response);
  }

  /** `notifications/cancelled` ends a listen or cancels a request of this connection; others need nothing. */
  notification(notification: JsonRpcNotification, state: McpStdioRev20260728State): void {
    const params = notification.params;
    if (notification.method !== 'notifications/cancelled' || !isPlainObject(params)) return;
    const requestId = params.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const listen = state.listens.get(listenKey(requestId));
    if (listen) {
      listen.close();
      state.listens.delete(listenKey(requestId));
      return;
    }
    this.dispatcher.cancel(state.cancellationScope, requestId, typeof params.reason === 'string' ? params.reason : undefined);
  }

  private listen(request: JsonRpcRequest, envelope: McpRev20260728Envelope, state: McpStdioRev20260728State, link: McpStdioLink): void {
    try {
      const handle = this.listens.open(
        request.id,
        request.params ?? {},
        envelope,
        { send: link.send, end: link.send },
        this.server.identity,
      );
      state.listens.set(listenKey(request.id), handle);
    } catch (error) {
      if (!(error instanceof McpProtocolError)) throw error;
      link.send(errorResponse(request.id, error.toJsonRpcError()));
    }
  }
}

function listenKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}
