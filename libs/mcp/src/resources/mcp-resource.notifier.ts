import { Injectable } from '@nestjs/common';
import { notification } from '../protocol/json-rpc.codec.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';

/**
 * Tells subscribed clients that a resource changed. Inject it wherever the data changes.
 *
 * Subscriptions live in this instance's memory: over Streamable HTTP a session is notified on its GET stream
 * when that stream is open on this instance; over legacy SSE and stdio on the connection.
 * @publicApi
 * @example
 * constructor(private readonly notifier: McpResourceNotifier) {}
 * async saveConfig(config: Config) {
 *   await this.store.save(config);
 *   this.notifier.resourceUpdated('app://config');
 * }
 */
@Injectable()
export class McpResourceNotifier {
  constructor(private readonly subscriptions: McpResourceSubscriptions) {}

  /**
   * Sends `notifications/resources/updated { uri }` to every session subscribed to exactly `uri`.
   * @returns how many sessions it reached (0 when nobody watches `uri`, or their streams are closed)
   */
  resourceUpdated(uri: string): number {
    return this.subscriptions.deliver(uri, notification('notifications/resources/updated', { uri }));
  }
}
