import { Inject, Injectable } from '@nestjs/common';
import type { McpCall } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../../core/session-streams.interface.js';
import { subscriberFor } from './resource-subscriber.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpResourceMethodHandler } from './resource-method.handler.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
import { McpStoredResourceSubscriptions } from './stored-resource-subscriptions.js';
import { uriParam } from './resource-uri-param.js';

/**
 * `resources/unsubscribe`: forgets the subscription, on whichever instance it was made (for a Streamable HTTP
 * session with `redis`, in the store: the instance holding its GET stream hears of it); `{}` also when there was
 * none (idempotent).
 */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesUnsubscribeHandler extends McpResourceMethodHandler {
  readonly method = 'resources/unsubscribe';

  constructor(
    registry: McpResourceRegistry,
    private readonly subscriptions: McpResourceSubscriptions,
    @Inject(MCP_SESSION_STREAMS) private readonly streams: McpSessionStreams,
    private readonly stored: McpStoredResourceSubscriptions,
  ) {
    super(registry);
  }

  async handle({ params, context }: McpCall): Promise<Record<string, unknown>> {
    const uri = uriParam(params, this.method);
    const sessionId = this.stored.sessionOf(context);
    if (sessionId !== undefined) {
      await this.stored.unsubscribe(sessionId, uri);
      return {};
    }
    const subscriber = subscriberFor(context, this.streams);
    if (subscriber) this.subscriptions.unsubscribeEverywhere(uri, subscriber.key);
    return {};
  }
}
