import { Logger } from '@nestjs/common';
import type { McpRedisOptions } from '../options/mcp-module-options.interface.js';
import { deliverToHandler } from './bus-delivery.js';
import type { McpMessageBus } from '../core/message-bus.interface.js';
import type { Cluster, Redis } from 'ioredis';
import {
  closeRedisClient,
  openRedisConnection,
  runCommand,
  type McpRedisLogger,
  type RedisClient,
  type RedisConnection,
} from './redis-connection.js';
import { DEFAULT_REDIS_KEY_PREFIX } from '../options/declarations/redis.options.js';
import { decodeValue, encodeValue } from './store-values.js';
import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';
import { McpStoreMessages } from './store.messages.js';

type Handler = (message: unknown) => void;

/**
 * `McpMessageBus` on Redis pub/sub, with a dedicated subscriber connection. Channels carry the key prefix (pub/sub
 * ignores the database number); messages sent while the subscriber is down are lost.
 * @publicApi
 */
export class McpRedisBus implements McpMessageBus {
  readonly crossesInstances = true;
  private readonly handlers = new Map<string, Set<Handler>>();
  /** Channels this bus has subscribed on Redis. */
  private readonly subscribed = new Set<string>();
  /** Per channel, the last SUBSCRIBE/UNSUBSCRIBE in flight: changes to one channel run one after another. */
  private readonly pending = new Map<string, Promise<void>>();

  private constructor(
    private readonly publisher: RedisConnection,
    private readonly subscriber: RedisConnection,
    private readonly prefix: string,
    private readonly logger: McpRedisLogger,
  ) {
    subscriber.client.on('message', (channel: string, payload: string) => this.dispatch(channel, payload));
  }

  /** Opens both connections and waits until Redis answers; rejects with `McpStoreUnavailableError` if it cannot. */
  static async connect(options: McpRedisOptions, logger: McpRedisLogger = new Logger('McpRedisBus')): Promise<McpRedisBus> {
    const publisher = await openRedisConnection(options, 'message bus publisher', logger);
    try {
      const subscriber = await openRedisConnection(options, 'message bus subscriber', logger);
      return new McpRedisBus(publisher, subscriber, options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX, logger);
    } catch (error) {
      await closeRedisClient(publisher.client);
      throw error;
    }
  }

  /** PUBLISH's count of receivers (0: nobody listens); undefined on a Cluster, where it counts only one node's. */
  async publish(channel: string, message: unknown): Promise<number | undefined> {
    const json = encodeValue(message, 'message');
    const receivers = await runCommand(this.publisher, (client) => publishingNode(client).publish(this.prefix + channel, json));
    return this.publisher.client.isCluster ? undefined : receivers;
  }

  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    // A wrapper per call, so the same function subscribed twice is two subscriptions.
    const subscription: Handler = (message) => handler(message);
    let handlers = this.handlers.get(channel);
    if (!handlers) this.handlers.set(channel, (handlers = new Set()));
    handlers.add(subscription);
    try {
      await this.sync(channel);
    } catch (error) {
      this.remove(channel, subscription);
      throw error;
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      this.remove(channel, subscription);
      // The handler is gone here already; if Redis cannot be told now, messages that still come are dropped.
      await this.sync(channel).catch(() => undefined);
    };
  }

  /** PING on the publisher, and the subscriber (which runs only pub/sub) connected; else `McpStoreUnavailableError`. */
  async ping(): Promise<void> {
    await runCommand(this.publisher, (client) => client.ping());
    if (this.subscriber.client.status !== 'ready')
      throw new McpStoreUnavailableError(
        McpStoreMessages.unavailable(this.subscriber.target, `subscriber ${this.subscriber.client.status}`),
      );
  }

  /** Ends every subscription and quits both connections. */
  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.all([closeRedisClient(this.subscriber.client), closeRedisClient(this.publisher.client)]);
  }

  private remove(channel: string, subscription: Handler): void {
    const handlers = this.handlers.get(channel);
    handlers?.delete(subscription);
    if (handlers?.size === 0) this.handlers.delete(channel);
  }

  /** Aligns the Redis subscription with the handlers, queued per channel so an UNSUBSCRIBE never overtakes a SUBSCRIBE. */
  private sync(channel: string): Promise<void> {
    const step = async () => {
      const wanted = this.handlers.has(channel);
      const redisChannel = this.prefix + channel;
      if (wanted && !this.subscribed.has(channel)) {
        await runCommand(this.subscriber, (client) => client.subscribe(redisChannel));
        this.subscribed.add(channel);
      } else if (!wanted && this.subscribed.has(channel)) {
        this.subscribed.delete(channel);
        await runCommand(this.subscriber, (client) => client.unsubscribe(redisChannel));
      }
    };
    const next = (this.pending.get(channel) ?? Promise.resolve()).then(step);
    const settled = next.catch(() => undefined);
    this.pending.set(channel, settled);
    void settled.then(() => {
      if (this.pending.get(channel) === settled) this.pending.delete(channel);
    });
    return next;
  }

  private dispatch(redisChannel: string, payload: string): void {
    if (!redisChannel.startsWith(this.prefix)) return;
    const channel = redisChannel.slice(this.prefix.length);
    const handlers = this.handlers.get(channel);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      let message: unknown;
      try {
        message = decodeValue(payload); // a copy per handler, as separate instances would get
      } catch {
        return; // not ours: something else published non-JSON on this channel
      }
      deliverToHandler(channel, handler, message, this.logger);
    }
  }
}

/** On a Cluster every message enters through one master (the first by address), which keeps them in order. */
function publishingNode(client: RedisClient): Pick<RedisClient, 'publish'> {
  if (!client.isCluster) return client;
  const masters = (client as Cluster).nodes('master');
  if (masters.length === 0) return client;
  const address = (node: Redis) => `${node.options.host}:${node.options.port}`;
  return masters.reduce((first, node) => (address(node) < address(first) ? node : first));
}
