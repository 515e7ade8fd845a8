import type { JsonRpcMessage } from './json-rpc/json-rpc.types.js';
import type { McpPrincipal } from './mcp-principal.interface.js';
import type { McpLogLevel } from './mcp-log-level.js';

/**
 * What a transport tells the dispatcher about one incoming message. The dispatcher never sees HTTP or stdio:
 * everything transport-specific is reduced to these fields.
 */
export interface McpRequestContext {
  /** `memory`: `@nest-mcp/core/testing` (McpTestClient, McpInMemoryTransport), one in-process connection. */
  readonly transport: 'http' | 'sse' | 'stdio' | 'memory';
  /** Revision in force for this request (from the session, the header, or the default). */
  readonly protocolVersion: string;
  readonly sessionId?: string;
  readonly principal?: McpPrincipal;
  /**
   * Sends a server message tied to this request (progress, log lines, server requests): the POST's SSE stream,
   * the 2024-11-05 HTTP+SSE stream or stdout. Undefined when the transport can only answer with one JSON response.
   */
  readonly send?: (message: JsonRpcMessage) => void;
  /** Lowest level of `notifications/message` the client asked for (`logging/setLevel`); undefined: all. */
  readonly logLevel?: McpLogLevel;
  /** Capabilities the client declared in `initialize` (known when the transport keeps a session or connection). */
  readonly clientCapabilities?: Record<string, unknown>;
  /** Stores the level set by `logging/setLevel` for later requests; undefined without a session. */
  readonly setLogLevel?: (level: McpLogLevel) => Promise<void>;
  /**
   * Asks the transport to refuse the request for missing scopes at its own level (HTTP 403 with a step-up
   * challenge); absent where there is no such level (stdio), and the refusal is then an error envelope.
   */
  readonly onInsufficientScope?: (scopes: string[]) => void;
  /**
   * Ends the HTTP connection of the call's SSE stream after a `retry:` hint, keeping the stream itself: the client
   * reconnects with `Last-Event-ID` and gets the rest (SEP-1699 polling). Absent where that cannot work.
   */
  readonly closeStream?: () => void;
  /**
   * Replaces the default delivery of server → client requests (`sampling/createMessage`, `elicitation/create`,
   * `roots/list`) for this request; the 2026 era answers them from the retry's `inputResponses` instead.
   */
  readonly askClient?: (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Scope in which `notifications/cancelled` ids are looked up (a session or a connection). */
  readonly cancellationScope?: string;
  /**
   * The W3C trace context the transport received with the message (HTTP `traceparent`, `tracestate`, `baggage`
   * headers, lower-case names), read by tracing when `params._meta` carries none. Absent over stdio.
   */
  readonly traceHeaders?: Readonly<Record<string, string>>;
  /**
   * The headers that carried the caller's credentials (`authorization`, `x-api-key`; over stdio the launch token as
   * `authorization: Bearer`), for controller routes called as tools: their REST guards read them.
   */
  readonly callerHeaders?: Readonly<Record<string, string>>;
}
