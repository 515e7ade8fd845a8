import { Inject, Injectable } from '@nestjs/common';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import { storeKey } from '../../stores/store-key.js';

/**
 * What an instance holds and is reached for. `legacy-sse` is part of the bus channel name: kept so instances of the
 * previous release still reach it in a rolling upgrade.
 */
export type McpRoute =
  | { kind: 'legacy-sse'; sessionId: string }
  | { kind: 'session-stream'; sessionId: string }
  | { kind: 'stream-events'; sessionId: string; streamId: string }
  | { kind: 'instance'; instanceId: string };

/** One bus channel per held route (the bus adds the key prefix): `route:<kind>:…`, or `instance:<id>`. */
export function channelOf(route: McpRoute): string {
  switch (route.kind) {
    case 'stream-events':
      return storeKey('route', route.kind, route.sessionId, route.streamId);
    case 'instance':
      // Held for the instance's whole life: outside `route:`, whose channels come and go with streams.
      return storeKey('instance', route.instanceId);
    default:
      return storeKey('route', route.kind, route.sessionId);
  }
}

/** Reaches a stream's holder over `MCP_BUS`: the holder subscribes to the route's channel, any instance publishes. */
@Injectable()
export class McpInstanceRouter {
  constructor(@Inject(MCP_BUS) private readonly bus: McpMessageBus) {}

  /** True when other instances may hold streams (the bus reaches beyond this process). */
  get spansInstances(): boolean {
    return this.bus.crossesInstances;
  }

  /** Receives what is sent to `route`; resolves once active with the function that lets go (or the subscription leaks). */
  async hold(route: McpRoute, handler: (message: unknown) => void): Promise<() => Promise<void>> {
    if (!this.spansInstances) return async () => undefined;
    return this.bus.subscribe(channelOf(route), handler);
  }

  /**
   * Sends `message` to whichever instance holds `route` (pub/sub keeps nothing): false when the bus says nobody
   * received it, true otherwise or when it cannot tell. Rejects with `McpStoreUnavailableError` while the bus is down.
   */
  async forward(route: McpRoute, message: unknown): Promise<boolean> {
    if (!this.spansInstances) return true;
    return (await this.bus.publish(channelOf(route), message)) !== 0;
  }
}
