import type { McpFeatureHandler } from '../feature-handler.js';
import type { McpCompletionContext } from './mcp-completion-context.interface.js';
import type { McpCompletionRef } from './mcp-completion-options.interface.js';

/** One completer: what it completes, where it is declared, and how to call it. */
export interface McpCompletionDefinition {
  readonly ref: McpCompletionRef;
  readonly argument: string;
  /** `ClassName#method`, for messages. */
  readonly site: string;
  readonly handler: McpFeatureHandler<McpCompletionContext>;
}
