import { Injectable } from '@nestjs/common';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { McpStreamHub } from '../../transports/streams/stream-hub.js';
import { subscriberFor } from './resource-subscriber.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
import { uriParam } from './resource-uri-param.js';

/** `resources/unsubscribe`: forgets the subscription; `{}` also when there was none (idempotent). */
@Injectable()
export class ResourcesUnsubscribeHandler implements McpMethodHandler {
  readonly method = 'resources/unsubscribe';

  constructor(
    private readonly subscriptions: McpResourceSubscriptions,
    private readonly hub: McpStreamHub,
  ) {}

  handle({ params, context }: McpCall): Record<string, unknown> {
    const uri = uriParam(params, this.method);
    const subscriber = subscriberFor(context, this.hub);
    if (subscriber) this.subscriptions.unsubscribe(uri, subscriber.key);
    return {};
  }
}
