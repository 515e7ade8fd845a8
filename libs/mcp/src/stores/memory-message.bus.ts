import { Logger } from '@nestjs/common';
import type { McpMessageBus } from '../core/message-bus.interface.js';
import { deliverToHandler } from './bus-delivery.js';
import { decodeValue, encodeValue } from './store-values.js';

type Handler = (message: unknown) => void;

/**
 * The default bus: one process. Delivers later (never inside `publish`) and as a JSON copy, as Redis would,
 * so code that works here does not depend on synchronous delivery or shared objects.
 * @publicApi
 */
export class McpMemoryBus implements McpMessageBus {
  /** One process: nothing published here reaches another instance. */
  readonly crossesInstances = false;
  private readonly channels = new Map<string, Set<Handler>>();
  private readonly logger = new Logger('McpMemoryBus');

  /** Resolves to the number of handlers subscribed now, as Redis counts subscribers. */
  async publish(channel: string, message: unknown): Promise<number> {
    const json = encodeValue(message, 'message');
    // Those subscribed now get it, unless they unsubscribe before it arrives.
    const handlers = [...(this.channels.get(channel) ?? [])];
    if (handlers.length === 0) return 0;
    setImmediate(() => {
      const current = this.channels.get(channel);
      for (const handler of handlers) if (current?.has(handler)) deliverToHandler(channel, handler, decodeValue(json), this.logger);
    });
    return handlers.length;
  }

  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    // A wrapper per call, so the same function subscribed twice is two subscriptions, as on Redis.
    const subscription: Handler = (message) => handler(message);
    let handlers = this.channels.get(channel);
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    handlers.add(subscription);
    return async () => {
      handlers.delete(subscription);
      if (handlers.size === 0 && this.channels.get(channel) === handlers) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
