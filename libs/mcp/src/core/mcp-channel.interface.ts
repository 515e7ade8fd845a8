import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage, JsonRpcResponse } from './json-rpc/json-rpc.types.js';
import type { McpLogLevel } from './mcp-log-level.js';
import type { McpPrincipal } from './mcp-principal.interface.js';
import type { McpRequestContext } from './mcp-request-context.interface.js';
import type { McpCaller } from './mcp-caller.js';
import type { McpEra } from './protocol-revisions.js';

/** What a connection remembers between its messages where the transport holds it in memory (stdio, in-memory). */
export interface McpConnectionState {
  /** The revision in force: the one `initialize` negotiated, or the connection's default until then. */
  protocolVersion: string;
  clientCapabilities?: Record<string, unknown>;
  logLevel?: McpLogLevel;
  /** The era the connection's first real message pinned it to (the era router sets it); undefined until then. */
  era?: McpEra;
  /** What stays open past its answer (a subscription), by request: closed with the connection or by the client. */
  readonly subscriptions?: Map<string, { close(): void }>;
}

/** How a message's answer may stream, once the engine knows the session and revision it is served in. */
export type McpChannelStream = Pick<McpRequestContext, 'send' | 'onInsufficientScope' | 'closeStream'>;

/** Where a subscription's messages go (the SSE response of its POST, or stdout) until the server ends it. */
export interface McpSubscriptionSink {
  send(message: JsonRpcMessage): void;
  /** Ends the subscription from the server side, after its final response. */
  end(response: JsonRpcResponse): void;
}

/**
 * What a transport hands an era engine with the bytes it framed: the sender, what the channel names beside them,
 * where server messages go. The engine does the rest and says what to send in an {@link McpAnswer}.
 */
export interface McpChannel {
  readonly transport: McpRequestContext['transport'];
  readonly principal?: McpPrincipal;
  /** The session the message names (Streamable HTTP's `Mcp-Session-Id`); undefined when it names none. */
  readonly sessionId?: string;
  /** The revision the channel names beside the message (HTTP's `MCP-Protocol-Version`); undefined when none. */
  readonly protocolVersion?: string;
  /** The state of the one client a connection-bound transport serves (stdio, in-memory): no session store. */
  readonly connection?: McpConnectionState;
  /** Where `notifications/cancelled` ids are looked up when no session scopes them (a connection's own scope). */
  readonly cancellationScope?: string;
  /** The W3C trace headers the transport received with the message (lower-case names). */
  readonly traceHeaders?: Readonly<Record<string, string>>;
  /** Who sent the message (`McpRequestContext.caller`). */
  readonly caller?: McpCaller;
  /** Opens the streaming side of one answer once session and revision are known; undefined: one answer, no stream. */
  readonly stream?: (served: { readonly sessionId?: string; readonly priming: boolean }) => McpChannelStream;
  /**
   * Runs `listener` if the client goes away before the answer of the stream opened (HTTP: the response closed);
   * nothing is written after. Undefined where a client cannot leave one answer (stdio).
   */
  onAbandon?(listener: () => void): void;
  /** A request header (HTTP; lower-case name), for the rules an era sets on headers; undefined where there are none. */
  header?(name: string): string | undefined;
  /**
   * Opens a stream that answers one request for as long as it stays open (a subscription); `close` runs when the client
   * goes away. Undefined when the transport refused it (and answered it) itself.
   */
  subscribe?(id: JsonRpcId, close: () => void): McpSubscriptionSink | undefined | Promise<McpSubscriptionSink | undefined>;
}

/** Why an engine refused a message before serving it; each transport renders it its own way (HTTP: a status). */
export type McpRefusalReason =
  /** A session-required server got a message without a session (HTTP 400). */
  | 'session-required'
  /** `initialize` on a session that already has one (HTTP 400). */
  | 'session-initialized'
  /** Unknown, ended, expired or another principal's session (HTTP 404). */
  | 'session-not-found'
  /** A revision named beside the message that this server does not speak (HTTP 400). */
  | 'unsupported-version'
  /** A batch this revision or these limits do not accept (HTTP 400, -32600). */
  | 'invalid-batch'
  /** The tenant has too many open sessions (HTTP 429 + Retry-After). */
  | 'too-many-sessions';

/** What an engine says to send for one framed message (or batch), in terms every transport can render. */
export type McpAnswer =
  | {
      readonly kind: 'reply';
      /** The JSON-RPC response (an array for a batch); undefined when there is nothing to answer (HTTP 202). */
      readonly reply?: JsonRpcResponse | JsonRpcResponse[];
      /** The session `initialize` created (HTTP sends it as `Mcp-Session-Id`). */
      readonly createdSessionId?: string;
      /** The HTTP status the era gives this answer (2026-07-28 maps its errors to statuses); 200 when absent. */
      readonly status?: number;
    }
  /** Accepted: the answers follow on the channel's stream (HTTP+SSE, `subscriptions/listen`), or were already sent. */
  | { readonly kind: 'accepted' }
  | { readonly kind: 'refused'; readonly reason: McpRefusalReason; readonly id: JsonRpcId | null; readonly error: JsonRpcErrorObject };
