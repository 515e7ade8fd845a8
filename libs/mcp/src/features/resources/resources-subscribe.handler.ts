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
 * `resources/subscribe`: remembers that the caller's session watches a URI this server serves (a fixed
 * resource or a template match): in the shared store for a Streamable HTTP session with `redis`, else in this
 * instance's memory. Without a session the answer is still `{}`, but nothing can be delivered.
 */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesSubscribeHandler extends McpResourceMethodHandler {
  readonly method = 'resources/subscribe';

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
    if (!this.registry.resolve(uri)) throw resourceNotFound(uri);
    if (!(await this.record(uri, context))) {
      throw new McpProtocolError(
        JsonRpcErrorCode.INVALID_REQUEST,
        `Invalid Request: a session may watch at most ${MAX_SUBSCRIPTIONS_PER_SUBSCRIBER} resources and ${MAX_SUBSCRIBED_URI_CHARACTERS} characters of URIs`,
      );
    }
    return {};
  }

  /** False at the limit; a store outage rejects (`McpStoreUnavailableError`: a retryable answer). */
  private async record(uri: string, context: McpCall['context']): Promise<boolean> {
    const sessionId = this.stored.sessionOf(context);
    if (sessionId !== undefined) return this.stored.subscribe(sessionId, uri);
    const subscriber = subscriberFor(context, this.streams);
    return !subscriber || this.subscriptions.subscribe(uri, subscriber);
  }
}
