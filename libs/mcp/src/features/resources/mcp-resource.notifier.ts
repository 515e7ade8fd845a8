import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { notification } from '../../core/json-rpc/json-rpc.codec.js';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';

/** Bus channel on which a change reaches the subscriptions held by the other instances. */
const RESOURCE_UPDATED_CHANNEL = 'resources:updated';

/**
 * Tells subscribed clients that a resource changed. Inject it wherever the data changes.
 *
 * Over Streamable HTTP the notification goes on the session's GET stream, over HTTP+SSE and stdio on the connection
 * that subscribed. With `redis` a change is also announced on the bus, and every instance notifies the subscribers it
 * delivers to (Streamable HTTP sessions where their GET stream is held); each subscriber hears of a change once.
 * @publicApi
 * @example
 * constructor(private readonly notifier: McpResourceNotifier) {}
 * async saveConfig(config: Config) {
 *   await this.store.save(config);
 *   this.notifier.resourceUpdated('app://config');
 * }
 */
@Injectable()
export class McpResourceNotifier implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpResourceNotifier');
  /** Tells this instance's own announcements apart from the others'. */
  private readonly origin = randomBytes(6).toString('base64url');
  private stopListening?: () => Promise<void>;

  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(
    private readonly subscriptions: McpResourceSubscriptions,
    @Inject(MCP_BUS) private readonly bus: McpMessageBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.bus.crossesInstances) return;
    this.stopListening = await this.bus.subscribe(RESOURCE_UPDATED_CHANNEL, (message) => {
      const { uri, origin } = (message ?? {}) as { uri?: unknown; origin?: unknown };
      if (typeof uri === 'string' && origin !== this.origin) this.deliver(uri);
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stopListening?.().catch(() => undefined);
  }

  /**
   * Sends `notifications/resources/updated { uri }` to every session subscribed to exactly `uri`.
   * @returns how many subscribers this instance reached itself (with several instances, each counts its own).
   */
  resourceUpdated(uri: string): number {
    if (this.bus.crossesInstances) {
      this.bus.publish(RESOURCE_UPDATED_CHANNEL, { uri, origin: this.origin }).catch((error: unknown) => {
        this.logger.warn(
          `The change of ${uri} reaches only this instance's subscribers: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
    return this.deliver(uri);
  }

  private deliver(uri: string): number {
    return this.subscriptions.deliver(uri, notification('notifications/resources/updated', { uri }));
  }
}
