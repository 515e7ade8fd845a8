import type { McpOutputType, McpToolAnnotations } from './mcp-tool-options.interface.js';
import type { McpStandardSchema } from '../../core/standard-schema.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpToolVisibleTo } from '../../options/mcp-tool-filter.interface.js';
import type { McpToolUiOptions } from '../apps/mcp-ui-options.interface.js';

/**
 * A tool added at runtime with `McpToolRegistry.register()`: the options of `@McpTool()` plus its name, arguments and
 * handler, built, validated and called like a decorated tool, without Nest guards, interceptors and filters (there
 * is no method). Long-running (`job`) tools must be declared with `@McpTool()`.
 * @publicApi
 */
export interface McpToolRegistration<Args = unknown> {
  /** Wire name, `^[A-Za-z0-9_-]{1,64}$`; a name in use is an error (use `replace()`). */
  name: string;
  description: string;
  title?: string;
  annotations?: McpToolAnnotations;
  /**
   * A class-validator DTO (the handler receives a validated instance of it), or a Standard Schema validator of an
   * object (Zod 4, Valibot, ArkType, …: the handler receives its parsed value).
   */
  args?: (new (...params: never[]) => object) | McpStandardSchema<unknown, Args>;
  /**
   * A hand-written JSON Schema (root `"type": "object"`), enforced with ajv; the handler receives the plain object.
   * With a Standard Schema in `args`: only what `tools/list` shows in place of the converted schema.
   */
  inputSchema?: Record<string, unknown>;
  /** An output DTO class or Standard Schema, as on `@McpTool({ output })`. */
  output?: McpOutputType;
  /** With a Standard Schema `output`: the JSON Schema of `data` shown in place of the converted one. */
  outputSchema?: Record<string, unknown>;
  timeoutMs?: number;
  idempotencyKey?: string;
  scopes?: string[];
  visibleTo?: McpToolVisibleTo;
  /** MCP Apps, as on `@McpTool({ ui })`: `resourceUri` must name an `@McpUiResource()` of this server. */
  ui?: McpToolUiOptions;
  /** What `@McpTool()` methods return: a value, an `McpResult`, or a thrown `McpToolError`. */
  handler: (args: Args, context: McpToolContext) => unknown;
}

/** A tool registered at runtime: replace or remove it later. @publicApi */
export interface McpToolHandle {
  readonly name: string;
  /** Swaps the definition (same name), announcing `notifications/tools/list_changed`. */
  replace(registration: Omit<McpToolRegistration, 'name'>): McpToolHandle;
  /** Removes the tool; false when it was already gone. */
  remove(): boolean;
}
