import type { JsonSchema } from './json-schema.types.js';

/** Hints about a tool's behaviour (MCP `ToolAnnotations`); clients treat them as untrusted. @publicApi */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as `tools/list` sends it. */
export interface McpToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: McpToolAnnotations;
  /** Extension metadata: `ui` (MCP Apps) from `@McpTool({ ui })`. */
  _meta?: Record<string, unknown>;
  /** Task support (spec 2025-11-25): long-running tools may be called as tasks. */
  execution?: { taskSupport: 'forbidden' | 'optional' | 'required' };
}
