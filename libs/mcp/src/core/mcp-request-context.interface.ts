import type { JsonRpcMessage } from './json-rpc/json-rpc.types.js';
import type { McpPrincipal } from './mcp-principal.interface.js';
import type { McpLogLevel } from './mcp-log-level.js';
import type { McpCaller } from './mcp-caller.js';

/** What a transport tells the dispatcher about one incoming message: all it knows of HTTP or stdio. */
export interface McpRequestContext {
  /** `memory`: `@nest-mcp/core/testing` (McpTestClient, McpInMemoryTransport), one in-process connection. */
  readonly transport: 'http' | 'sse' | 'stdio' | 'memory';
  /** Revision in force for this request (from the session, the header, or the default). */
  readonly protocolVersion: string;
  readonly sessionId?: string;
  readonly principal?: McpPrincipal;
  /** Sends a server message tied to this request (SSE stream or stdout); undefined when only one JSON answer fits. */
  readonly send?: (message: JsonRpcMessage) => void;
  /** Lowest level of `notifications/message` the client asked for (`logging/setLevel`); undefined: all. */
  readonly logLevel?: McpLogLevel;
  /** Capabilities the client declared in `initialize` (known when the transport keeps a session or connection). */
  readonly clientCapabilities?: Record<string, unknown>;
  /** Stores the level set by `logging/setLevel` for later requests; undefined without a session. */
  readonly setLogLevel?: (level: McpLogLevel) => Promise<void>;
  /** Refuses for missing scopes at the transport's level (HTTP 403 step-up); absent on stdio (an error envelope then). */
  readonly onInsufficientScope?: (scopes: string[]) => void;
  /** Ends the SSE stream's HTTP connection after a `retry:` hint, keeping the stream for `Last-Event-ID` (SEP-1699). */
  readonly closeStream?: () => void;
  /** Replaces the delivery of server → client requests for this request (2026: answered from `inputResponses`). */
  readonly askClient?: (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Scope in which `notifications/cancelled` ids are looked up (a session or a connection). */
  readonly cancellationScope?: string;
  /** W3C trace headers received with the message (lower-case names), read when `params._meta` carries none. */
  readonly traceHeaders?: Readonly<Record<string, string>>;
  /**
   * Who sent this message as its transport saw it (headers, client address, principal), for the guards of tools and
   * for routes called as tools; undefined only where no transport built the context.
   */
  readonly caller?: McpCaller;
}
