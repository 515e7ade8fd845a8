import { Injectable } from '@nestjs/common';
import type { McpAnswer, McpConnectionState } from '../core/mcp-channel.interface.js';
import { errorResponse } from '../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcRequest } from '../core/json-rpc/json-rpc.types.js';
import { routeMessage, type EraClaim } from './era-claim.js';
import { McpRev20251125Engine, type McpRev20251125Channel } from './rev-2025-11-25/rev-2025-11-25.engine.js';
import {
  McpRev20260728Engine,
  type McpRev20260728Connection,
  type McpRev20260728EngineChannel,
} from './rev-2026-07-28/rev-2026-07-28.engine.js';

/** What a transport hands the router: the channel of each era (the 2026-07-28 one only where it serves that era). */
export interface McpEraChannels {
  readonly rev20251125: () => McpRev20251125Channel;
  /** Built for the request the router classified (undefined for a notification). */
  readonly rev20260728?: (request: JsonRpcRequest | undefined) => McpRev20260728EngineChannel;
  /** A connection pinned by its first real message (stdio): told which era the message pinned it to. */
  readonly pin?: (era: '2025-11-25' | '2026-07-28') => void;
}

/** What a connection-bound transport (stdio) keeps for its one client, in both eras. */
export interface McpEraConnection {
  readonly rev20251125: McpConnectionState;
  readonly rev20260728: McpRev20260728Connection;
}

/** The entry of transports that speak both eras: classifies each message once ({@link routeMessage}) for its engine. */
@Injectable()
export class McpEraRouter {
  constructor(
    private readonly rev20251125: McpRev20251125Engine,
    private readonly rev20260728: McpRev20260728Engine,
  ) {}

  /** The state of a new connection: the latest revision until `initialize` negotiates, no listens. */
  openConnection(): McpEraConnection {
    return { rev20251125: this.rev20251125.openConnection(), rev20260728: { listens: new Map() } };
  }

  /** Ends what a closed connection left open (its 2026-07-28 listens). */
  closeConnection(connection: McpEraConnection): void {
    this.rev20260728.close(connection.rev20260728);
  }

  serve(claim: EraClaim, channels: McpEraChannels): Promise<McpAnswer> | McpAnswer {
    const route = routeMessage(claim);
    switch (route.era) {
      case 'refused':
        return { kind: 'reply', reply: errorResponse(route.id, route.refusal.toJsonRpcError()), status: route.refusal.status };
      case '2025-11-25':
        if (route.opening) channels.pin?.('2025-11-25');
        return this.rev20251125.serve(claim.message, channels.rev20251125());
    }
    // A response on a connection pinned to 2026-07-28: this era sends no requests, so there is nothing to settle.
    if (route.kind === 'response' || !channels.rev20260728) return { kind: 'reply' };
    if (route.kind === 'notification') return this.rev20260728.notification(route.notification, channels.rev20260728(undefined));
    if (route.pins) channels.pin?.('2026-07-28');
    return this.rev20260728.request(route, channels.rev20260728(route.request));
  }
}
