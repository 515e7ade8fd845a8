import { Inject, Injectable } from '@nestjs/common';
import type { McpCall, McpMethodHandler, McpMethodHandlerGroup } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../../core/session-streams.interface.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { admits } from '../components/component.registry.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { subscriberFor } from './resource-subscriber.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
import { MAX_SUBSCRIBED_URI_CHARACTERS, MAX_SUBSCRIPTIONS_PER_SUBSCRIBER } from './resource-subscription.limits.js';
import { McpStoredResourceSubscriptions } from './stored-resource-subscriptions.js';
import { resourceNotFound, uriParam } from './resource-uri-param.js';

/**
 * `resources/subscribe` watches a URI this server serves; `resources/unsubscribe` forgets the watch (`{}` also when
 * there was none). A watch is kept in the store for a Streamable HTTP session with `redis`, else in this instance's
 * memory; without a session nothing can be delivered, and both still answer `{}`. Served like `resources/read`.
 */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesSubscriptionHandlers implements McpMethodHandlerGroup {
  readonly handlers: readonly McpMethodHandler[] = [
    { method: 'resources/subscribe', isServed: () => this.registry.served, handle: (call: McpCall) => this.subscribe(call) },
    { method: 'resources/unsubscribe', isServed: () => this.registry.served, handle: (call: McpCall) => this.unsubscribe(call) },
  ];

  constructor(
    private readonly registry: McpResourceRegistry,
    private readonly subscriptions: McpResourceSubscriptions,
    @Inject(MCP_SESSION_STREAMS) private readonly streams: McpSessionStreams,
    private readonly stored: McpStoredResourceSubscriptions,
  ) {}

  private async subscribe({ params, context }: McpCall): Promise<Record<string, unknown>> {
    const uri = uriParam(params, 'resources/subscribe');
    const match = this.registry.resolve(uri);
    if (!match) throw resourceNotFound(uri);
    // Watching is reading: a caller refused `resources/read` of the URI (a scoped upstream's) may not watch it either.
    const held = context.principal?.scopes;
    if (!admits(match, held)) {
      const missing = match.scopes!.filter((scope) => !held!.includes(scope));
      throw new McpProtocolError(JsonRpcErrorCode.SERVER_ERROR, `Missing scope(s) for this resource: ${missing.join(', ')}`, {
        status: 403,
      });
    }
    if (!(await this.watch(uri, context))) {
      throw new McpProtocolError(
        JsonRpcErrorCode.INVALID_REQUEST,
        `Invalid Request: a session may watch at most ${MAX_SUBSCRIPTIONS_PER_SUBSCRIBER} resources and ${MAX_SUBSCRIBED_URI_CHARACTERS} characters of URIs`,
      );
    }
    return {};
  }

  private async unsubscribe({ params, context }: McpCall): Promise<Record<string, unknown>> {
    await this.unwatch(uriParam(params, 'resources/unsubscribe'), context);
    return {};
  }

  /** False at the limit; a store outage rejects (`McpStoreUnavailableError`: a retryable answer). */
  private async watch(uri: string, context: McpCall['context']): Promise<boolean> {
    const sessionId = this.stored.sessionOf(context);
    if (sessionId !== undefined) {
      const recorded = await this.stored.subscribe(sessionId, uri);
      if (recorded) this.subscriptions.watchedInStore(uri);
      return recorded;
    }
    const subscriber = subscriberFor(context, this.streams);
    return !subscriber || this.subscriptions.subscribe(uri, subscriber);
  }

  /** Forgets the watch on whichever instance it was made. */
  private async unwatch(uri: string, context: McpCall['context']): Promise<void> {
    const sessionId = this.stored.sessionOf(context);
    if (sessionId !== undefined) return this.stored.unsubscribe(sessionId, uri);
    const subscriber = subscriberFor(context, this.streams);
    if (subscriber) this.subscriptions.unsubscribeEverywhere(uri, subscriber.key);
  }
}
