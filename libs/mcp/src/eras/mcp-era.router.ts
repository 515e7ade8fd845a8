import { Injectable } from '@nestjs/common';
import type { McpAnswer, McpConnectionState } from '../core/mcp-channel.interface.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { errorResponse } from '../core/json-rpc/json-rpc.codec.js';
import { LATEST_PROTOCOL_VERSION } from '../core/protocol-revisions.js';
import type { McpSessionRecord } from '../sessions/mcp-session.record.js';
import { claimOf, routeMessage } from './era-claim.js';
import type { McpEraChannel } from './mcp-era.channel.js';
import { McpRev20251125Engine } from './rev-2025-11-25/rev-2025-11-25.engine.js';
import { McpRev20260728Engine } from './rev-2026-07-28/rev-2026-07-28.engine.js';

/**
 * The one entry of the eras for every transport: it classifies each message once ({@link routeMessage}) and hands
 * the transport's channel, unchanged, to the engine of its era. Transports know no era.
 */
@Injectable()
export class McpEraRouter {
  constructor(
    private readonly rev20251125: McpRev20251125Engine,
    private readonly rev20260728: McpRev20260728Engine,
  ) {}

  /** The state of a new connection (stdio, in-memory): `protocolVersion` until `initialize` negotiates, no era pinned yet. */
  openConnection(protocolVersion?: string): McpConnectionState {
    return { protocolVersion: protocolVersion ?? LATEST_PROTOCOL_VERSION, subscriptions: new Map() };
  }

  /** Ends what a closed connection left open (its subscriptions). */
  closeConnection(connection: McpConnectionState): void {
    this.rev20260728.close(connection);
  }

  serve(message: unknown, channel: McpEraChannel): Promise<McpAnswer> | McpAnswer {
    const route = routeMessage(claimOf(message, channel));
    switch (route.era) {
      case 'refused':
        return { kind: 'reply', reply: errorResponse(route.id, route.refusal.toJsonRpcError()), status: route.refusal.status };
      case '2025-11-25':
        if (route.opening && channel.connection) channel.connection.era = '2025-11-25';
        return this.rev20251125.serve(message, channel);
    }
    // A response on a connection pinned to 2026-07-28: this era sends no requests, so there is nothing to settle.
    if (route.kind === 'response') return { kind: 'reply' };
    if (route.kind === 'notification') return this.rev20260728.notification(route.notification, channel);
    if (route.pins && channel.connection) channel.connection.era = '2026-07-28';
    return this.rev20260728.request(route, channel);
  }

  /** Opens the session of an HTTP+SSE stream (the session era); undefined when the tenant has too many sessions. */
  openStreamSession(principal: McpPrincipal | undefined, instance: string): Promise<McpSessionRecord | undefined> {
    return this.rev20251125.openStreamSession(principal, instance);
  }

  /** Whether a session refuses this body as a batch: checked by HTTP+SSE before it accepts or forwards a POST. */
  refusesBatch(body: unknown, session: McpSessionRecord): boolean {
    return this.rev20251125.refusesBatch(body, session.protocolVersion);
  }

  /** Whether a session's GET stream starts with a priming event (its revision says so). */
  primes(session: McpSessionRecord): boolean {
    return this.rev20251125.primes(session);
  }
}
