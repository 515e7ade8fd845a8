import { Inject, Injectable } from '@nestjs/common';
import type { McpCall } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../../core/session-streams.interface.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpResourceMethodHandler } from './resource-method.handler.js';
import { subscriberFor } from './resource-subscriber.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
import { MAX_SUBSCRIBED_URI_CHARACTERS, MAX_SUBSCRIPTIONS_PER_SUBSCRIBER } from './resource-subscription.limits.js';
import { McpStoredResourceSubscriptions } from './stored-resource-subscriptions.js';
import { resourceNotFound, uriParam } from './resource-uri-param.js';

/**
 * Where a caller's watch of a URI is kept: in the shared store for a Streamable HTTP session with `redis` (the
 * instance holding its GET stream hears of changes), else in this instance's memory for the caller's channel.
 * Without a session nothing can be delivered, and both methods still answer `{}`.
 */
@Injectable()
abstract class McpResourceWatchHandler extends McpResourceMethodHandler {
  constructor(
    registry: McpResourceRegistry,
    private readonly subscriptions: McpResourceSubscriptions,
    @Inject(MCP_SESSION_STREAMS) private readonly streams: McpSessionStreams,
    private readonly stored: McpStoredResourceSubscriptions,
  ) {
    super(registry);
  }

  /** False at the limit; a store outage rejects (`McpStoreUnavailableError`: a retryable answer). */
  protected async watch(uri: string, context: McpCall['context']): Promise<boolean> {
    const sessionId = this.stored.sessionOf(context);
    if (sessionId !== undefined) return this.stored.subscribe(sessionId, uri);
    const subscriber = subscriberFor(context, this.streams);
    return !subscriber || this.subscriptions.subscribe(uri, subscriber);
  }

  /** Forgets the watch on whichever instance it was made. */
  protected async unwatch(uri: string, context: McpCall['context']): Promise<void> {
    const sessionId = this.stored.sessionOf(context);
    if (sessionId !== undefined) return this.stored.unsubscribe(sessionId, uri);
    const subscriber = subscriberFor(context, this.streams);
    if (subscriber) this.subscriptions.unsubscribeEverywhere(uri, subscriber.key);
  }
}

/** `resources/subscribe`: watches a URI this server serves (a fixed resource or a template match). */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesSubscribeHandler extends McpResourceWatchHandler {
  readonly method = 'resources/subscribe';

  async handle({ params, context }: McpCall): Promise<Record<string, unknown>> {
    const uri = uriParam(params, this.method);
    if (!this.registry.resolve(uri)) throw resourceNotFound(uri);
    if (!(await this.watch(uri, context))) {
      throw new McpProtocolError(
        JsonRpcErrorCode.INVALID_REQUEST,
        `Invalid Request: a session may watch at most ${MAX_SUBSCRIPTIONS_PER_SUBSCRIBER} resources and ${MAX_SUBSCRIBED_URI_CHARACTERS} characters of URIs`,
      );
    }
    return {};
  }
}

/** `resources/unsubscribe`: forgets the watch; `{}` also when there was none (idempotent). */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesUnsubscribeHandler extends McpResourceWatchHandler {
  readonly method = 'resources/unsubscribe';

  async handle({ params, context }: McpCall): Promise<Record<string, unknown>> {
    await this.unwatch(uriParam(params, this.method), context);
    return {};
  }
}
