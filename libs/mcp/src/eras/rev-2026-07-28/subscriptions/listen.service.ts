import { Inject, Injectable } from '@nestjs/common';
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification } from '../../../core/json-rpc/json-rpc.types.js';
import { JsonRpcErrorCode } from '../../../core/json-rpc/json-rpc-error-codes.js';
import { McpCapabilities } from '../../../core/mcp-capabilities.js';
import { McpProtocolError } from '../../../core/errors/protocol-error.js';
import { McpResourceSubscriptions } from '../../../features/resources/resource-subscriptions.js';
import { McpResourceRegistry } from '../../../features/resources/mcp-resource.registry.js';
import { admits } from '../../../features/components/component.registry.js';
import type { McpPrincipal } from '../../../core/mcp-principal.interface.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../../../core/session-streams.interface.js';
import { type McpRev20260728Envelope } from '../envelope.js';
import { isPlainObject } from '../../../core/plain-object.js';
import { Rev20260728Refusals } from '../refusals.js';
import { META } from '../../../core/rev-2026-07-28.constants.js';
import { assertTasksDeclared } from '../tasks/rev-2026-07-28.tasks-extension.js';
import type { McpSubscriptionSink } from '../../../core/mcp-channel.interface.js';

/** The notification filter of `subscriptions/listen` (what the client asks for, then what the server honours). */
export interface McpListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** An open listen, for its transport: close it when the client goes away. */
export interface ListenHandle {
  close(): void;
}

type ListKind = 'tools' | 'prompts' | 'resources';

interface Listener {
  readonly id: JsonRpcId;
  readonly key: string;
  readonly filter: McpListenFilter;
  readonly sink: McpSubscriptionSink;
  readonly serverInfo: Record<string, unknown>;
}

/**
 * `subscriptions/listen` (2026-07-28): streams of the notifications their filter asks for and the server can
 * deliver, tagged `_meta.subscriptionId`. Listens live on the instance holding the stream; none survives a reconnect.
 */
@Injectable()
export class McpListenService {
  private readonly listeners = new Set<Listener>();
  private sequence = 0;

  constructor(
    private readonly capabilities: McpCapabilities,
    private readonly subscriptions: McpResourceSubscriptions,
    @Inject(MCP_SESSION_STREAMS) streams: McpSessionStreams,
    private readonly resources: McpResourceRegistry,
  ) {
    // The listens get their final response before the transports end every open stream (and so their streams).
    streams.beforeStreamsEnd(() => this.endAll());
  }

  /** Opens a listen and sends its acknowledgement; -32601 if nothing is subscribable, -32602 bad filter, -32021 `taskIds`. */
  open(
    id: JsonRpcId,
    params: Record<string, unknown>,
    envelope: McpRev20260728Envelope,
    sink: McpSubscriptionSink,
    serverInfo: Record<string, unknown>,
    principal?: McpPrincipal,
  ): ListenHandle {
    const caps = this.capabilities.toJSON();
    // Nothing could ever be delivered: the method is not served.
    if (![caps.tools?.listChanged, caps.prompts?.listChanged, caps.resources?.listChanged, caps.resources?.subscribe].includes(true))
      throw Rev20260728Refusals.methodNotFound('subscriptions/listen');
    const requested = params.notifications;
    if (!isPlainObject(requested))
      throw new McpProtocolError(
        JsonRpcErrorCode.INVALID_PARAMS,
        'Invalid params: subscriptions/listen needs a notifications filter object',
      );
    if (requested.taskIds !== undefined) assertTasksDeclared(envelope);
    const listener: Listener = { id, key: `listen:${++this.sequence}`, filter: this.honoured(requested, principal), sink, serverInfo };
    sink.send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: listener.filter, _meta: { [META.subscriptionId]: id } },
    });
    for (const uri of listener.filter.resourceSubscriptions ?? []) {
      this.subscriptions.subscribe(uri, { key: listener.key, deliver: (message) => (this.send(listener, message), true) });
    }
    this.listeners.add(listener);
    return { close: () => this.forget(listener) };
  }

  /** Sends `notifications/<kind>/list_changed` to the listens that asked for it; returns how many. */
  listChanged(kind: ListKind): number {
    const flag = `${kind}ListChanged` as const;
    let reached = 0;
    for (const listener of this.listeners) {
      if (listener.filter[flag] !== true) continue;
      this.send(listener, { jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
      reached++;
    }
    return reached;
  }

  /** Server-side end (shutdown): each listen gets its final response, tagged, then its stream closes. */
  private endAll(): void {
    for (const listener of [...this.listeners]) {
      this.forget(listener);
      listener.sink.end({
        jsonrpc: '2.0',
        id: listener.id,
        result: { resultType: 'complete', _meta: { [META.subscriptionId]: listener.id, [META.serverInfo]: listener.serverInfo } },
      });
    }
  }

  /**
   * Only what was asked for and can be delivered: a flag needs `listChanged`, resource URIs need `subscribe`, and a
   * URI the caller may not read (a scoped upstream's, as `resources/subscribe` refuses it) is left out.
   */
  private honoured(requested: Record<string, unknown>, principal: McpPrincipal | undefined): McpListenFilter {
    const caps = this.capabilities.toJSON();
    const filter: McpListenFilter = {};
    if (requested.toolsListChanged === true && caps.tools?.listChanged === true) filter.toolsListChanged = true;
    if (requested.promptsListChanged === true && caps.prompts?.listChanged === true) filter.promptsListChanged = true;
    if (requested.resourcesListChanged === true && caps.resources?.listChanged === true) filter.resourcesListChanged = true;
    if (Array.isArray(requested.resourceSubscriptions) && caps.resources?.subscribe === true) {
      const uris = [
        ...new Set(requested.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string' && uri !== '')),
      ].filter((uri) => admits(this.resources.resolve(uri) ?? {}, principal?.scopes));
      if (uris.length > 0) filter.resourceSubscriptions = uris;
    }
    return filter;
  }

  private send(listener: Listener, message: JsonRpcNotification | JsonRpcMessage): void {
    if (!('method' in message)) return;
    const params = { ...(message.params ?? {}) };
    params._meta = { ...(isPlainObject(params._meta) ? params._meta : {}), [META.subscriptionId]: listener.id };
    listener.sink.send({ ...message, params } as JsonRpcNotification);
  }

  private forget(listener: Listener): void {
    if (!this.listeners.delete(listener)) return;
    this.subscriptions.forget(listener.key);
  }
}
