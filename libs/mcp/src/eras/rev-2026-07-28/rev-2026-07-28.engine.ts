import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { McpAnswer, McpConnectionState } from '../../core/mcp-channel.interface.js';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcId, JsonRpcNotification } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { isPlainObject } from '../../core/plain-object.js';
import { McpRev20260728Refusal, rev20260728HttpStatus, Rev20260728Refusals } from './refusals.js';
import { McpRev20260728Responder, type McpRev20260728Call, type McpRev20260728Channel } from './rev-2026-07-28.responder.js';
import { McpListenService, type ListenHandle } from './subscriptions/listen.service.js';
import type { McpEraChannel } from '../mcp-era.channel.js';

/**
 * The engine of the 2026-07-28 era: requests go to {@link McpRev20260728Responder}, a `subscriptions/listen` stays
 * open on the transport's stream, a `notifications/cancelled` ends a listen or cancels a request. Its rules for the
 * channel: no session (a named one is ignored); each request is cancelled on its own, and closing its response
 * (HTTP) cancels it; a connection (stdio) cancels by `notifications/cancelled` and keeps its listens.
 */
@Injectable()
export class McpRev20260728Engine {
  constructor(
    private readonly server: McpRev20260728Responder,
    private readonly dispatcher: McpDispatcher,
    private readonly listens: McpListenService,
  ) {}

  /** Serves one request; the answer carries the HTTP status the era gives it. */
  async request(call: McpRev20260728Call, channel: McpEraChannel): Promise<McpAnswer> {
    if (call.request.method === 'subscriptions/listen') return this.listen(call, channel);
    const answer = await this.server.serve(call, this.requestChannel(call, channel));
    return { kind: 'reply', reply: answer?.response, status: answer?.status };
  }

  /** One request's side of the channel: its stream (one answer, or SSE once it sends), its cancellation scope. */
  private requestChannel({ request }: McpRev20260728Call, channel: McpEraChannel): McpRev20260728Channel {
    const stream = channel.stream?.({ priming: false });
    const cancellationScope = channel.cancellationScope ?? `${channel.transport}-2026-07-28:${randomUUID()}`;
    // Closing the response stream cancels the request (2026-07-28): the handler's signal aborts.
    channel.onAbandon?.(() => this.dispatcher.cancel(cancellationScope, request.id, 'response stream closed'));
    return {
      // Streamable HTTP, stdio and the in-memory test connection reach this era: HTTP+SSE sessions stay in theirs.
      transport: channel.transport as 'http' | 'stdio' | 'memory',
      principal: channel.principal,
      send: stream?.send,
      cancellationScope,
      onInsufficientScope: stream?.onInsufficientScope,
      header: channel.header && ((name) => channel.header!(name)),
      traceHeaders: channel.traceHeaders,
      caller: channel.caller,
    };
  }

  /** `notifications/cancelled` ends a listen or cancels a request of this connection; others need nothing. */
  notification(notification: JsonRpcNotification, channel: McpEraChannel): McpAnswer {
    const params = notification.params;
    const requestId = isPlainObject(params) ? params.requestId : undefined;
    if (notification.method !== 'notifications/cancelled' || (typeof requestId !== 'string' && typeof requestId !== 'number')) {
      return { kind: 'reply' };
    }
    const listens = channel.connection?.subscriptions;
    const listen = listens?.get(listenKey(requestId));
    if (listen) {
      listen.close();
      listens!.delete(listenKey(requestId));
    } else if (channel.connection) {
      this.dispatcher.cancel(channel.cancellationScope!, requestId, typeof params!.reason === 'string' ? params!.reason : undefined);
    }
    return { kind: 'reply' };
  }

  /** Ends the listens of a connection that closed (stdin ended). */
  close(connection: McpConnectionState): void {
    if (!connection.subscriptions) return;
    for (const listen of connection.subscriptions.values()) listen.close();
    connection.subscriptions.clear();
  }

  /** `subscriptions/listen`: a stream that starts with the acknowledgement and stays open. */
  private async listen(call: McpRev20260728Call, channel: McpEraChannel): Promise<McpAnswer> {
    const { request, envelope } = call;
    let handle: ListenHandle | undefined;
    try {
      if (!channel.subscribe) throw Rev20260728Refusals.methodNotFound(request.method);
      const opening = channel.subscribe(request.id, () => handle?.close());
      const sink = opening instanceof Promise ? await opening : opening;
      if (!sink) return { kind: 'accepted' };
      handle = this.listens.open(request.id, request.params ?? {}, envelope, sink, this.server.identity, channel.principal);
    } catch (error) {
      if (!(error instanceof McpProtocolError)) throw error;
      const status = error instanceof McpRev20260728Refusal ? error.status : rev20260728HttpStatus(error.toJsonRpcError());
      return { kind: 'reply', reply: errorResponse(request.id, error.toJsonRpcError()), status };
    }
    channel.connection?.subscriptions?.set(listenKey(request.id), handle);
    return { kind: 'accepted' };
  }
}

function listenKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}
