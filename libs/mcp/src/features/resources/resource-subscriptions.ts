import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { ResourceSubscriber } from './resource-subscriber.js';
import { McpSessionService } from '../../sessions/mcp-session.service.js';
import { McpStoredResourceSubscriptions } from './stored-resource-subscriptions.js';
import { roomFor } from './resource-subscription.limits.js';

/** Bus channel on which a `resources/unsubscribe` reaches the instance holding the subscription. */
const RESOURCE_UNSUBSCRIBED_CHANNEL = 'resources:unsubscribed';

/**
 * Who watches which resource URI in this instance's memory (connections, and Streamable HTTP sessions on a single
 * instance), keyed by subscriber. With other instances an unsubscribe is announced on the bus; Streamable HTTP
 * sessions' subscriptions are then in the store ({@link McpStoredResourceSubscriptions}), which `deliver` covers too.
 */
@Injectable()
export class McpResourceSubscriptions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpResourceSubscriptions');
  private readonly byUri = new Map<string, Map<string, ResourceSubscriber>>();
  private readonly bySubscriber = new Map<string, Set<string>>();
  private stopListening?: () => Promise<void>;
  /** Told when a URI gains its first subscriber or loses its last (the upstreams watch theirs upstream meanwhile). */
  private readonly watchers = new Set<(uri: string, watched: boolean) => void>();

  constructor(
    sessions: McpSessionService,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
    @Optional() private readonly stored?: McpStoredResourceSubscriptions,
  ) {
    // Subscriptions are per session: they end with it (subscriber keys are `<transport>:<session id>`).
    sessions.onEnd((sessionId) => {
      this.forget(`http:${sessionId}`);
      this.forget(`sse:${sessionId}`);
    });
  }

  /** Records the subscription; false when the subscriber already watches its maximum of URIs (count or characters). */
  subscribe(uri: string, subscriber: ResourceSubscriber): boolean {
    let uris = this.bySubscriber.get(subscriber.key);
    if (!uris?.has(uri) && !roomFor(uris ?? [], uri)) return false;
    if (!uris) this.bySubscriber.set(subscriber.key, (uris = new Set()));
    uris.add(uri);
    let subscribers = this.byUri.get(uri);
    if (!subscribers) {
      this.byUri.set(uri, (subscribers = new Map()));
      this.announce(uri, true);
    }
    subscribers.set(subscriber.key, subscriber);
    return true;
  }

  /** Listens to URIs gaining their first subscriber and losing their last; returns the unsubscribe function. */
  onWatchChange(listener: (uri: string, watched: boolean) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** A subscription the store keeps began (a Streamable HTTP session with `redis`): told like a first subscriber. */
  watchedInStore(uri: string): void {
    this.announce(uri, true);
  }

  /**
   * Whether anyone may still watch `uri`: a subscriber here, or, when the store keeps Streamable HTTP sessions'
   * subscriptions (which this instance does not all know), always.
   */
  watched(uri: string): boolean {
    return this.byUri.has(uri) || this.stored?.enabled === true;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.bus?.crossesInstances) return;
    this.stopListening = await this.bus.subscribe(RESOURCE_UNSUBSCRIBED_CHANNEL, (message) => {
      const { uri, key } = (message ?? {}) as { uri?: unknown; key?: unknown };
      if (typeof uri === 'string' && typeof key === 'string') this.unsubscribe(uri, key);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopListening?.().catch(() => undefined);
  }

  /** Ends the subscription here and, with other instances, on the one that holds it (`resources/unsubscribe`). */
  unsubscribeEverywhere(uri: string, key: string): void {
    this.unsubscribe(uri, key);
    if (!this.bus?.crossesInstances) return;
    this.bus.publish(RESOURCE_UNSUBSCRIBED_CHANNEL, { uri, key }).catch((error: unknown) => {
      this.logger.warn(
        `Unsubscribe from ${uri} not announced to the other instances: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  unsubscribe(uri: string, key: string): void {
    const subscribers = this.byUri.get(uri);
    subscribers?.delete(key);
    if (subscribers?.size === 0) {
      this.byUri.delete(uri);
      if (!this.watched(uri)) this.announce(uri, false);
    }
    const uris = this.bySubscriber.get(key);
    uris?.delete(uri);
    if (uris?.size === 0) this.bySubscriber.delete(key);
  }

  /** Drops every subscription of a session or connection (when it ends). */
  forget(key: string): void {
    for (const uri of this.bySubscriber.get(key) ?? []) this.unsubscribe(uri, key);
  }

  /** Drops every subscription to a URI `stillServed` rejects (a resource removed at runtime); returns how many URIs. */
  dropUnserved(stillServed: (uri: string) => boolean): number {
    let dropped = this.stored?.dropUnserved(stillServed) ?? 0;
    for (const [uri, subscribers] of [...this.byUri]) {
      if (stillServed(uri)) continue;
      for (const key of [...subscribers.keys()]) this.unsubscribe(uri, key);
      dropped++;
    }
    return dropped;
  }

  /** Sends `message` to every subscriber of `uri` this instance delivers to; returns how many it reached. */
  deliver(uri: string, message: JsonRpcMessage): number {
    let reached = this.stored?.deliver(uri, message) ?? 0;
    for (const subscriber of this.byUri.get(uri)?.values() ?? []) if (subscriber.deliver(message)) reached++;
    return reached;
  }

  private announce(uri: string, watched: boolean): void {
    for (const listener of this.watchers) listener(uri, watched);
  }

  /** URIs a subscriber watches (for tests and diagnostics). */
  urisOf(key: string): readonly string[] {
    return [...(this.bySubscriber.get(key) ?? [])];
  }
}
