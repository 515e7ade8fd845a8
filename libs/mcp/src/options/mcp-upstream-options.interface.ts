import type { McpOutboundAuth } from './mcp-outbound-auth.interface.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';

/** Who a credential function is asked for: a calling tenant, or nobody (listing the upstream's components). @publicApi */
export interface McpUpstreamCaller {
  /** The calling tenant; undefined when the gateway lists the upstream's components for everyone. */
  readonly tenant?: string;
  readonly principal?: McpPrincipal;
}

/**
 * One upstream MCP server behind this one (module option `sources.upstreams`): its tools and prompts are served as
 * `<name>_<tool>`, its resources as `<name>+<uri>` (templates likewise), through this server's call pipeline.
 * Give `url` (Streamable HTTP, else 2024-11-05 HTTP+SSE) or `command` (a stdio child process).
 * @publicApi
 */
export interface McpUpstreamOptions {
  /** Namespace of its components: 1 to 32 lower-case letters, digits and `-`, starting with a letter. */
  name: string;
  /** The upstream's MCP endpoint. */
  url?: string;
  /** Headers sent to an HTTP upstream (an API key): the same for every tenant. */
  headers?: Record<string, string>;
  /** Headers per calling tenant (its own API key for the upstream), added to `headers`; called once per upstream session. */
  credentials?: (caller: McpUpstreamCaller) => Record<string, string> | Promise<Record<string, string>>;
  /**
   * The credential each call carries to the HTTP upstream: a token exchanged for the caller's (RFC 8693) or this
   * server's own (client credentials). With `tokenExchange`, each caller gets upstream sessions of its own.
   */
  auth?: McpOutboundAuth;
  /**
   * Send the caller's own `Authorization` header to the HTTP upstream (off: the caller's token stays here). Only for
   * one trust domain (an upstream that accepts the tokens this server does); refused with `auth.oauth`
   * (`MCP_ERR_TOKEN_PASSTHROUGH`): use `auth.tokenExchange`. Each caller gets upstream sessions of its own.
   */
  forwardAuthorization?: boolean;
  /** A stdio upstream: the program to run, its arguments, environment (added to a minimal inherited one) and directory. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Scopes a caller must hold for every component of this upstream: without them its tools, prompts, resources and
   * templates are hidden, and calls, gets, reads, subscriptions and completions of them refused.
   */
  scopes?: string[];
  /** Time one call of its tools may take (the module's `tools.timeoutMs`). */
  timeoutMs?: number;
  /**
   * HTTP upstreams: upstream sessions kept at once (100), one per calling tenant, or per caller when the credential
   * is the caller's (forwarded or exchanged); the least recently used closes first.
   */
  maxSessions?: number;
  /** HTTP upstreams: an upstream session unused this long is closed (5 min). */
  sessionIdleMs?: number;
}
