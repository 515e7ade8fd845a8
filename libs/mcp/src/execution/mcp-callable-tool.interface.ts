import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import type { McpArgumentValidator } from './validation/argument-validator.interface.js';
import type { StandardOutcome } from './validation/standard-argument.validator.js';

/** Calls the tool method (through Nest's interceptors, pipes and filters; its guards are `guards`) with validated arguments. */
export type McpToolHandler = (args: unknown, context: McpToolContext) => Promise<unknown>;

/**
 * Runs a tool's Nest guards on the raw arguments: resolves undefined when they admit the call, or what one of the
 * tool's exception filters answered their refusal with; a refusal no filter answers rejects. `none()` is true when
 * the tool has no guard at all (none on its class or method, no global one): the pipeline then skips the stage.
 */
export type McpToolGuards = ((args: unknown, context: McpToolContext) => Promise<{ answered: unknown } | undefined>) & {
  readonly none?: () => boolean;
};

/**
 * What the call pipeline reads of a tool, computed once at boot. The features' `McpToolDefinition` extends it with
 * what listing needs (the descriptor, visibility), so the pipeline never imports a feature.
 */
export interface McpCallableTool {
  readonly name: string;
  /** `ClassName#method`, for messages. */
  readonly site: string;
  /**
   * The tool's one argument validator, built by its source at boot (a DTO, a Standard Schema, a compiled JSON Schema,
   * a route, none for a tool without arguments): the value the tool receives, or the refusal.
   */
  readonly validator: McpArgumentValidator;
  /** Validates and parses a success envelope's `data` with the tool's Standard Schema `output`. */
  readonly parseOutput?: (data: unknown) => Promise<StandardOutcome>;
  /**
   * The arguments a caller sent, as the tool declares them (set by transforms: renamed arguments mapped back, hidden
   * ones filled with their fixed values); the pipeline applies it first, so validation checks the tool's own schema.
   */
  readonly toToolArgs?: (args: Record<string, unknown>) => Record<string, unknown>;
  /** A failing field of the tool's arguments (`q`, `q.0`), named as the caller sees it (`query`, `query.0`). */
  readonly toCallerField?: (field: string) => string;
  readonly timeoutMs: number;
  /** Set for long-running tools: they run as jobs. */
  readonly job?: { estimatedSeconds?: number };
  /** Argument holding the idempotency key, if any. */
  readonly idempotencyKey?: string;
  /** Scopes required to see and call the tool (empty: none). */
  readonly scopes: readonly string[];
  /** The upstream server (option `upstreams`) the tool relays to: a metrics label and a span attribute. */
  readonly upstream?: string;
  readonly handler: McpToolHandler;
  /** The tool's Nest guards, run by the call pipeline before limits, validation and idempotency (decorated tools). */
  readonly guards?: McpToolGuards;
}
