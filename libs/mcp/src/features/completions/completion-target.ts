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

/** What resolving a ref needs from the prompt and resource registries. */
export interface CompletionSources {
  prompt(name: string): { readonly arguments: readonly { name: string }[] } | undefined;
  template(uriTemplate: string): { readonly matcher: { readonly variables: readonly string[] } } | undefined;
  /** A fixed resource, or a template a concrete URI matches. */
  resolve(uri: string): { readonly uriTemplate?: string } | undefined;
}

/**
 * The target of a ref, or undefined when nothing declares it. A `ref/resource` names a template by its
 * `uriTemplate`; a concrete URI is accepted too (the spec allows "URI or URI template"): a fixed resource has no
 * arguments, a templated one the variables of the template it matches.
 */
export function findCompletionTarget(ref: McpCompletionRef, sources: CompletionSources, exact: boolean): CompletionTarget | undefined {
  if (ref.type === 'ref/prompt') {
    const prompt = sources.prompt(ref.name);
    return prompt && { ref, arguments: prompt.arguments.map((argument) => argument.name) };
  }
  const template = sources.template(ref.uri);
  if (template) return { ref, arguments: template.matcher.variables };
  if (exact) return undefined;
  const match = sources.resolve(ref.uri);
  if (!match) return undefined;
  if (match.uriTemplate === undefined) return { ref, arguments: [] };
  const matched = sources.template(match.uriTemplate);
  return matched && { ref: { type: 'ref/resource', uri: match.uriTemplate }, arguments: matched.matcher.variables };
}
