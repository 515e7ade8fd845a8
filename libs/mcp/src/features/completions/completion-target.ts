import { CLIENT_URI_MAX_CHARACTERS, clientText } from '../../core/client-text.js';
import type { McpCompletionRef } from './mcp-completion-options.interface.js';

/** How messages name a ref: `prompt "x"` or `resource template "y"`. */
export function describeRef(ref: McpCompletionRef): string {
  // Refs come from clients too: bounded and escaped, for error messages and logs.
  return ref.type === 'ref/prompt'
    ? `prompt "${clientText(ref.name)}"`
    : `resource template "${clientText(ref.uri, CLIENT_URI_MAX_CHARACTERS)}"`;
}

/** The lookup key of one argument of one ref. */
export function completionKey(ref: McpCompletionRef, argument: string): string {
  return `${ref.type}\u0000${ref.type === 'ref/prompt' ? ref.name : ref.uri}\u0000${argument}`;
}

/** What a ref points at, as far as completion cares: its argument names. */
export interface CompletionTarget {
  /** Prompt argument names or template variable names (none for a fixed resource). */
  readonly arguments: readonly string[];
  /** The ref under which its completers are registered (a template's own `uriTemplate`). */
  readonly ref: McpCompletionRef;
}
