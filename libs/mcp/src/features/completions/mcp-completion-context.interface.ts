import type { McpHandlerContext } from '../mcp-handler-context.interface.js';
import type { McpCompletionRef } from './mcp-completion-options.interface.js';

/**
 * What a completion method receives as its second argument (or through `@McpContext()`); its first is the
 * partial value.
 * @publicApi
 */
export interface McpCompletionContext extends McpHandlerContext {
  readonly ref: McpCompletionRef;
  /** The argument being completed and what the user typed so far. */
  readonly argument: { readonly name: string; readonly value: string };
  /** Values of the other arguments already filled in (`context.arguments` of the request; `{}` when none). */
  readonly arguments: Readonly<Record<string, string>>;
}
