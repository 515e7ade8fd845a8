import { Injectable } from '@nestjs/common';
import type { McpAnswer } from '../../core/mcp-channel.interface.js';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcId, JsonRpcNotification } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { isPlainObject } from '../../core/plain-object.js';
import { McpRev20260728Refusal, rev20260728HttpStatus } from './refusals.js';
import { McpRev20260728Responder, type McpRev20260728Call, type McpRev20260728Channel } from './rev-2026-07-28.responder.js';
import { McpListenService, type ListenHandle, type ListenSink } from './subscriptions/listen.service.js';

/** What a connection-bound transport (stdio) keeps for 2026-07-28: its open listens, by request id. */
export interface McpRev20260728Connection {
  readonly listens: Map<string, ListenHandle>;
}

/** What a transport hands the 2026-07-28 engine with one routed message. */
export interface McpRev20260728EngineChannel extends McpRev20260728Channel {
  /** The connection whose listens `notifications/cancelled` may end (stdio); undefined on HTTP. */
  readonly connection?: McpRev20260728Connection;
  /** Opens the stream of a `subscriptions/listen`; undefined when the transport refused (and answered) it itself. */
  readonly listenStream: (close: () => void) => ListenSink | undefined | Promise<ListenSink | undefined>;
}

/**
 * The engine of the 2026-07-28 era: requests go to {@link McpRev20260728Responder}, a `subscriptions/listen` stays
 * open on the transport's stream, a `notifications/cancelled` ends a listen or cancels a request.
 */
@Injectable()
export class McpRev20260728Engine {
  constructor(
    private readonly server: McpRev20260728Responder,
    private readonly dispatcher: McpDispatcher,
    private readonly listens: McpListenService,
  ) {}

  /** Serves one request; the answer carries the HTTP status the era gives it. */
  async request(call: McpRev20260728Call, channel: McpRev20260728EngineChannel): Promise<McpAnswer> {
    if (call.request.method === 'subscriptions/listen') return this.listen(call, channel);
    const answer = await this.server.serve(call, channel);
    return { kind: 'reply', reply: answer?.response, status: answer?.status };
  }

  /** `notifications/cancelled` ends a listen or cancels a request of this connection; others need nothing. */
  notification(notification: JsonRpcNotification, channel: McpRev20260728EngineChannel): McpAnswer {
    const params = notification.params;
    const requestId = isPlainObject(params) ? params.requestId : undefined;
    if (notification.method !== 'notifications/cancelled' || (typeof requestId !== 'string' && typeof requestId !== 'number')) {
      return { kind: 'reply' };
    }
    const listens = channel.connection?.listens;
    const listen = listens?.get(listenKey(requestId));
    if (listen) {
      listen.close();
      listens!.delete(listenKey(requestId));
    } else if (channel.connection) {
      this.dispatcher.cancel(channel.cancellationScope, requestId, typeof params!.reason === 'string' ? params!.reason : undefined);
    }
    return { kind: 'reply' };
  }

  /** Ends the listens of a connection that closed (stdin ended). */
  close(connection: McpRev20260728Connection): void {
    for (const listen of connection.listens.values()) listen.close();
    connection.listens.clear();
  }

  /** `subscriptions/listen`: a stream that starts with the acknowledgement and stays open. */
  private async listen(call: McpRev20260728Call, channel: McpRev20260728EngineChannel): Promise<McpAnswer> {
    const { request, envelope } = call;
    let handle: ListenHandle | undefined;
    const opening = channel.listenStream(() => handle?.close());
    const sink = opening instanceof Promise ? await opening : opening;
    if (!sink) return { kind: 'accepted' };
    try {
      handle = this.listens.open(request.id, request.params ?? {}, envelope, sink, this.server.identity, channel.principal);
    } catch (error) {
      if (!(error instanceof McpProtocolError)) throw error;
      const status = error instanceof McpRev20260728Refusal ? error.status : rev20260728HttpStatus(error.toJsonRpcError());
      return { kind: 'reply', reply: errorResponse(request.id, error.toJsonRpcError()), status };
    }
    channel.connection?.listens.set(listenKey(request.id), handle);
    return { kind: 'accepted' };
  }
}

function listenKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}
