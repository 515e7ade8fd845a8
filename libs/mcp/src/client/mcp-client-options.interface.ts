import type { McpClientOAuthOptions } from './auth/mcp-client-auth-options.interface.js';

/** Headers sent with every HTTP request to the server: fixed, or computed per request (a token that rotates). @publicApi */
/**
 * Headers of every HTTP request: fixed, or a function called for each request. The function is given the `headers`
 * of the call the request is sent for (undefined outside a call); those are sent over what it returns.
 */
export type McpClientHeaders =
  Record<string, string> | ((call?: Readonly<Record<string, string>>) => Record<string, string> | Promise<Record<string, string>>);

/** Reconnection after a lost connection (a dropped stream, an exited child): exponential backoff. @publicApi */
export interface McpClientReconnectOptions {
  /** First delay (500 ms). */
  initialDelayMs?: number;
  /** Longest delay (30 s). */
  maxDelayMs?: number;
}

/**
 * Which protocol era the client speaks: `auto` (the default) probes `server/discover` and speaks 2026-07-28 with a
 * server that serves it, else falls back to `initialize` (2025-11-25 … 2024-11-05); `legacy` goes straight to
 * `initialize`, as clients before 2026-07-28 do; `2026-07-28` requires the stateless era and fails with
 * `PROTOCOL` against a server without it.
 * @publicApi
 */
export type McpClientProtocol = 'auto' | 'legacy' | '2026-07-28';

/** Options common to both transports. @publicApi */
export interface McpClientCommonOptions {
  /** `clientInfo` of `initialize`, and of the `_meta` envelope of every 2026-07-28 request (`{ name: 'nest-mcp-client', version: '1.0.0' }`). */
  clientInfo?: { name: string; version: string; title?: string };
  /**
   * Capabilities declared in `initialize`, or sent with every 2026-07-28 request (`{}`). A 2026-07-28 server asks
   * for input (elicitation, sampling, roots) only where they are declared: `{ elicitation: {} }` for forms.
   */
  capabilities?: Record<string, unknown>;
  /** The era to speak (`auto`): see {@link McpClientProtocol}. */
  protocol?: McpClientProtocol;
  /** Default time a request may take, reset by each progress notification of a call (60 s). */
  timeoutMs?: number;
  /**
   * Time `initialize` (connect, spawn included) may take (10 s; 5 min with the `auth` option's authorization code
   * grant, whose first exchange waits for the user to sign in).
   */
  connectTimeoutMs?: number;
  /** Largest message accepted from the server, in bytes (10 MiB); a larger one fails its request with `TOO_LARGE`. */
  maxMessageBytes?: number;
  /** Reconnect with backoff after a lost connection (the default), or `false` to stay disconnected until the next call. */
  reconnect?: McpClientReconnectOptions | false;
  /**
   * Answers the server's own requests (`sampling/createMessage`, `elicitation/create`, `roots/list`); `ping` is
   * answered by the client. Without it (or when it returns undefined) the server gets -32601. In the 2026-07-28
   * era the same requests arrive inside an `input_required` result and are answered the same way. A call's own
   * `onRequest` comes first.
   */
  onRequest?: (method: string, params: Record<string, unknown> | undefined) => Promise<Record<string, unknown> | undefined>;
}

/** A remote server over Streamable HTTP (falling back to the 2024-11-05 HTTP+SSE transport). @publicApi */
export interface McpClientHttpOptions extends McpClientCommonOptions {
  /** The MCP endpoint (`https://host/mcp`), or the `GET` URL of a 2024-11-05 server (`https://host/sse`). */
  url: string;
  headers?: McpClientHeaders;
  /**
   * OAuth 2.1 against a protected server (Streamable HTTP): the client answers its 401 and 403 challenges itself and
   * sends the token on every request (its `Authorization` header wins over `headers`). See {@link McpClientOAuthOptions}.
   */
  auth?: McpClientOAuthOptions;
}

/** A server run as a child process speaking newline-delimited JSON-RPC on stdin/stdout. @publicApi */
export interface McpClientStdioOptions extends McpClientCommonOptions {
  command: string;
  args?: string[];
  /**
   * Environment of the child, added to a minimal inherited one (`PATH`, `HOME`, `USER`, `LANG`, `TMPDIR`, …): the
   * parent's secrets are not passed on unless listed here.
   */
  env?: Record<string, string>;
  cwd?: string;
}

/** Options of an {@link McpClient}: `url` for HTTP, `command` for stdio. @publicApi */
export type McpClientOptions = McpClientHttpOptions | McpClientStdioOptions;

/** Options of one call. @publicApi */
export interface McpClientCallOptions {
  /** Aborting it cancels the call: the server gets `notifications/cancelled` and the call rejects with `CANCELLED`. */
  signal?: AbortSignal;
  /** Receives the server's `notifications/progress` for this call (a progress token is sent only when set). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** `_meta` sent with the request (a progress token is added to it when `onProgress` is set). */
  meta?: Record<string, unknown>;
  /**
   * HTTP: headers of this call's own requests, over the client's `headers` (a `headers` function is given them).
   * Per-call credentials without any async context: what a gateway's relayed call carries.
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * Answers the server's requests made while this call runs (`sampling/createMessage`, `elicitation/create`,
   * `roots/list`), before the client's `onRequest`. In the 2026-07-28 era they come in `input_required` results and
   * the call is retried with the answers (at most 8 rounds; returning undefined declines). In the initialize era:
   * over Streamable HTTP those on this call's response stream; over stdio and the GET stream, which do not say which
   * call a request belongs to, only while this is the one call in flight with an `onRequest`; returning undefined
   * answers -32601, throwing an McpClientError with an `rpcCode` answers that error.
   */
  onRequest?: (method: string, params: Record<string, unknown> | undefined) => Promise<Record<string, unknown> | undefined>;
}
