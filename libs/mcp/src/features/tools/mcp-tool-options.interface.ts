import type { McpToolVisibleTo } from './mcp-tool-filter.interface.js';
import type { McpToolUiOptions } from '../apps/mcp-ui-options.interface.js';

/** Hints about a tool's behaviour (MCP `ToolAnnotations`); clients treat them as untrusted. @publicApi */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * Options of `@McpTool()`.
 * @publicApi
 */
export interface McpToolOptions {
  /** Wire name; defaults to the method name in snake_case. Must match `^[A-Za-z0-9_-]{1,64}$`. */
  name?: string;
  /** What the tool does, for the model. Required. */
  description: string;
  /** Human-readable display name. */
  title?: string;
  annotations?: McpToolAnnotations;
  /**
   * A hand-written JSON Schema (2020-12) for the arguments, sent verbatim (`$schema`, `$defs` kept) and enforced
   * with ajv, instead of a DTO. The handler then receives the plain arguments object.
   */
  inputSchema?: Record<string, unknown>;
  /** An output DTO class: becomes `outputSchema` (covering every envelope the tool may return). */
  output?: abstract new (...args: never[]) => unknown;
  /** Per-tool timeout; defaults to the module's `toolTimeoutMs`. */
  timeoutMs?: number;
  /**
   * Long-running tool: the call answers at once with a `pending` envelope (`job_id`, `poll_url`) while the handler
   * runs as a job; poll with the built-in `get_job_status` tool, `GET <path>/jobs/<id>`, or MCP tasks.
   */
  job?: boolean | { estimatedSeconds?: number };
  /**
   * Name of the argument holding an idempotency key: a repeated key (same tool and tenant) returns the first
   * call's result without running again; the same key with other arguments is `IDEMPOTENCY_KEY_REUSED`.
   */
  idempotencyKey?: string;
  /**
   * Scopes the caller's token must all carry (with authentication on). Callers without them do not see the tool
   * in `tools/list`, and calling it gets 403 with a step-up challenge.
   */
  scopes?: string[];
  /**
   * Who sees the tool: callers for whom it returns false do not find it in `tools/list`, and calling it answers
   * "Unknown tool" (-32602), the answer for a name that does not exist. `principal` is undefined without auth.
   * @example visibleTo: (principal) => principal?.claims.beta === true
   */
  visibleTo?: McpToolVisibleTo;
  /**
   * MCP Apps: the tool's result is rendered by the `@McpUiResource()` at `resourceUri` (`_meta.ui` in
   * `tools/list`); clients without the extension get the same tool and results.
   * @example ui: { resourceUri: 'ui://weather/card' }
   */
  ui?: McpToolUiOptions;
}
