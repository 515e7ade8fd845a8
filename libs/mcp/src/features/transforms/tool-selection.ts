import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpToolSelector } from '../../options/mcp-tool-transformation.js';
import { McpTransformMessages as Messages } from './mcp-transform.messages.js';

/** Names listed in an "unknown tool" message before "and N more". */
const LISTED_NAMES = 20;

/** The selectors of a selection, or the problem with it (for `McpModule option "tools.transforms[i]" <problem>`). */
export function selectorsOf(selection: unknown, member: string): McpToolSelector[] | string {
  const list = Array.isArray(selection) ? (selection as unknown[]) : [selection];
  if (list.length === 0) return `has an empty "${member}"`;
  for (const selector of list) {
    const provider = typeof selector === 'object' && selector !== null ? (selector as { provider?: unknown }).provider : undefined;
    if (!(typeof selector === 'string' && selector !== '') && typeof provider !== 'function')
      return `has a "${member}" that is neither a tool name or glob nor { provider: SomeClass }`;
  }
  return list as McpToolSelector[];
}

/**
 * The tools `selectors` pick among `tools` (names and globs against the current names, `{ provider }` against the
 * declaring class). A selector that picks none fails the boot, naming the option `at` and the tools there are, unless
 * `mayPickNone` allows it.
 */
export function selectTools(
  tools: readonly McpToolDefinition[],
  selectors: readonly McpToolSelector[],
  at: string,
  mayPickNone?: (selector: McpToolSelector) => boolean,
): Set<McpToolDefinition> {
  const picked = new Set<McpToolDefinition>();
  for (const selector of selectors) {
    const found = tools.filter(matcherOf(selector));
    if (found.length === 0 && !mayPickNone?.(selector)) {
      const names = tools.map((tool) => tool.name);
      const known = names.length > LISTED_NAMES ? [...names.slice(0, LISTED_NAMES), `and ${names.length - LISTED_NAMES} more`] : names;
      throw new McpConfigurationError(Messages.unknownTool(at, describeSelector(selector), known));
    }
    for (const tool of found) picked.add(tool);
  }
  return picked;
}

function matcherOf(selector: McpToolSelector): (tool: McpToolDefinition) => boolean {
  if (typeof selector !== 'string') return (tool) => tool.declaredBy === selector.provider;
  if (!/[*?]/.test(selector)) return (tool) => tool.name === selector;
  // Tool names are letters, digits, `_` and `-`: escaping the rest keeps a glob a glob.
  const source = selector
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const pattern = new RegExp(`^${source}$`);
  return (tool) => pattern.test(tool.name);
}

function describeSelector(selector: McpToolSelector): string {
  return typeof selector === 'string'
    ? JSON.stringify(selector.slice(0, 80))
    : `{ provider: ${selector.provider.name || 'an anonymous class'} }`;
}
