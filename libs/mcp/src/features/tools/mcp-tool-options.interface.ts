import type { McpToolVisibleTo } from '../../options/mcp-tool-filter.interface.js';
import type { McpToolUiOptions } from '../apps/mcp-ui-options.interface.js';
import type { McpStandardSchema } from '../../core/standard-schema.js';
import type { McpToolAnnotations } from '../../core/mcp-tool-descriptor.interface.js';

/** What a tool's `output` may be: a DTO class, or a Standard Schema validator (Zod 4, Valibot, ArkType, …). @publicApi */
export type McpOutputType = (abstract new (...args: never[]) => unknown) | McpStandardSchema;

export type { McpToolAnnotations };

/** Options of `@McpTool()`. @publicApi */
export interface McpToolOptions {
  /** Wire name; defaults to the method name in snake_case. Must match `^[A-Za-z0-9_-]{1,64}$`. */
  name?: string;
  /** What the tool does, for the model. Required. */
  description: string;
  /** Human-readable display name. */
  title?: string;
  annotations?: McpToolAnnotations;
  /**
   * The arguments as a Standard Schema validator (Zod 4, Valibot, ArkType, …) instead of a DTO parameter: an object
   * schema, converted once at boot to the `inputSchema` clients see (by the vendor's own converter), and run on every
   * call (`~standard.validate`); the method receives the parsed value (defaults and transforms applied).
   * @example input: z.object({ city: z.string().min(2), days: z.number().int().max(14).default(3) })
   */
  input?: McpStandardSchema;
  /**
   * A hand-written JSON Schema (2020-12) for the arguments, sent verbatim (`$schema`, `$defs` kept) and enforced
   * with ajv, instead of a DTO. The handler then receives the plain arguments object. With `input`, it is only what
   * `tools/list` shows in place of the converted schema (for a vendor without a JSON Schema converter); `input`
   * still validates.
   */
  inputSchema?: Record<string, unknown>;
  /**
   * What the tool returns in a success envelope's `data`: an output DTO class, or a Standard Schema validator (then
   * also checked on the server, and the parsed value sent). Becomes `outputSchema` (covering every envelope the tool
   * may return).
   */
  output?: McpOutputType;
  /**
   * With a Standard Schema `output`: the JSON Schema of `data` shown in place of the converted one (for a vendor
   * without a converter). Wrapped in the envelope schema like a converted one.
   */
  outputSchema?: Record<string, unknown>;
  /** Per-tool timeout; defaults to the module's `tools.timeoutMs`. */
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
