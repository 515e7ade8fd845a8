import type { McpProbeAnswer } from '../eras/era-probe.js';
import type { ModernParamHeaders } from '../eras/rev-2026-07-28.wire.js';

/** Where a transport hands what it receives. */
export interface McpClientTransportSink {
  /** One parsed JSON value from the server (a message, or a batch); `related`: the request whose response stream carried it. */
  message(value: unknown, related?: string | number): void;
  /** A request's answer will never come (its response stream ended first). */
  lost(id: string | number, error: Error): void;
  /** The connection is gone (child exited, stream dropped); the client reconnects. */
  closed(error: Error): void;
}

/** One connection to a server; the client owns the JSON-RPC above it. */
export interface McpClientTransport {
  /** `streamable-http`, `http-sse` (2024-11-05), `stdio` or `memory` (`@nest-mcp/core/testing`). */
  readonly kind: 'streamable-http' | 'http-sse' | 'stdio' | 'memory';
  /** Connects (spawns the child, opens the SSE stream); messages then reach `sink`. */
  open(sink: McpClientTransportSink): Promise<void>;
  /**
   * Sends one message. Rejects with an McpClientError when it cannot be delivered (`UNAVAILABLE`, `SESSION_EXPIRED`,
   * `PROTOCOL` with status 404/405 when a Streamable HTTP endpoint is not one). HTTP sends `callHeaders` (the
   * `headers` option of the call the message belongs to) over the client's own.
   */
  send(message: Record<string, unknown>, signal?: AbortSignal, callHeaders?: Readonly<Record<string, string>>): Promise<void>;
  /** `initialize` succeeded with this revision (HTTP sends it as `MCP-Protocol-Version`, opens its GET stream). */
  initialized?(protocolVersion: string): Promise<void>;
  /**
   * HTTP only: POSTs the `server/discover` probe of a dual-era client outside the JSON-RPC flow and returns what
   * came back, status included (the era verdict reads it). stdio and memory probe with an ordinary request.
   */
  probe?(message: Record<string, unknown>, signal: AbortSignal): Promise<McpProbeAnswer>;
  /**
   * The 2026-07-28 era was chosen at this revision: HTTP adds its headers to every POST (`Mcp-Param-*` from
   * `paramHeaders`) and keeps no session.
   */
  modern?(protocolVersion: string, paramHeaders: ModernParamHeaders): void;
  close(): Promise<void>;
}
