import { Inject, Injectable } from '@nestjs/common';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import { storeKey } from '../../stores/store-key.js';

/**
 * What an instance can hold for a session and be reached for: the 2024-11-05 HTTP+SSE stream (where its POSTs are
 * dispatched), the Streamable HTTP GET stream (where its server notifications go), the events of one live SSE
 * stream (published for followers on other instances), and the instance itself (requests to follow a stream).
 * The kind `legacy-sse` is a wire value, part of the bus channel name (`mcp:route:legacy-sse:<id>`): it keeps
 * its old name so that, during a rolling upgrade, instances of the previous release still reach these routes.
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

/**
 * Reaches the instance that holds a session's stream, over `MCP_BUS`: the holder subscribes to the route's
 * channel while it holds the stream, and any instance publishes there. With the in-memory bus there is no other
 * instance: nothing is subscribed or published, and a stream not held here is simply not reachable.
 */
@Injectable()
export class McpInstanceRouter {
  constructor(@Inject(MCP_BUS) private readonly bus: McpMessageBus) {}

  /** True when other instances may hold streams (the bus reaches beyond this process). */
  get spansInstances(): boolean {
    return this.bus.crossesInstances;
  }

  /**
   * Receives what other instances send to `route` from now on; resolves once that is active, with the function
   * that lets go (call it when the stream ends: an unreleased route is a leaked subscription).
   */
  async hold(route: McpRoute, handler: (message: unknown) => void): Promise<() => Promise<void>> {
    if (!this.spansInstances) return async () => undefined;
    return this.bus.subscribe(channelOf(route), handler);
  }

  /**
   * Sends `message` to whichever instance holds `route`; a route nobody holds drops it (pub/sub keeps nothing).
   * Resolves to false when the bus says nobody received it (the holder died, or is resubscribing after a bus
   * outage), true otherwise, also when the bus cannot tell. Rejects with `McpStoreUnavailableError` while the bus is down.
   */
  async forward(route: McpRoute, message: unknown): Promise<boolean> {
    if (!this.spansInstances) return true;
    return (await this.bus.publish(channelOf(route), message)) !== 0;
  }
}
