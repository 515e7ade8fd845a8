import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { hideToolArguments, renameToolArguments } from './arguments.transform.js';
import type { McpToolTransform } from './mcp-tool-transform.interface.js';
import type { McpToolSelector, McpToolTransformation } from '../../options/mcp-tool-transformation.js';
import { McpTransformMessages as Messages } from './mcp-transform.messages.js';
import { namespaceTool, renameToolTo } from './namespace.transform.js';
import { selectorsOf, selectTools } from './tool-selection.js';

/** One transformation, checked: which tools it picks (all when `include` is absent), and what it does to each. */
interface Plan {
  readonly include?: McpToolSelector[];
  readonly exclude?: McpToolSelector[];
  readonly transform: McpToolTransform;
}

/**
 * The tools as `McpModule.forRoot({ tools: { transforms } })` shapes them, in list order: each transformation picks among the
 * tools as the ones before it left them. Boot errors (naming `tools.transforms[i]`): a value not built by the transform
 * functions, a selector that picks no tool, an unknown or clashing argument, a required argument hidden without a
 * value, and two tools ending with one name. `mayPickNone` names the selectors allowed to pick no tool (those of
 * an upstream server's tools, which come and go).
 */
export function applyToolTransformations(
  tools: readonly McpToolDefinition[],
  transformations: readonly McpToolTransformation[],
  option = 'tools.transforms',
  mayPickNone?: (selector: McpToolSelector) => boolean,
): McpToolDefinition[] {
  let current = [...tools];
  transformations.forEach((transformation, index) => {
    const at = `${option}[${index}]`;
    const plan = planOf(transformation, at);
    const picked = plan.include ? selectTools(current, plan.include, at, mayPickNone) : new Set(current);
    const excluded = plan.exclude ? selectTools(current, plan.exclude, at, mayPickNone) : new Set<McpToolDefinition>();
    current = current.map((tool) => (picked.has(tool) && !excluded.has(tool) ? plan.transform(tool) : tool));
  });
  checkNames(tools, current);
  return current;
}

/** What a transformation value asks for, or a boot error saying what is wrong with it. */
function planOf(value: McpToolTransformation, at: string): Plan {
  const invalid = (problem: string) => new McpConfigurationError(Messages.invalid(at, problem));
  if (!isPlainObject(value)) throw invalid('is not a tool transformation');
  const selection = (member: string, given: unknown) => {
    const selectors = selectorsOf(given, member);
    if (typeof selectors === 'string') throw invalid(selectors);
    return selectors;
  };
  switch (value.kind) {
    case 'renameTool': {
      const { tool, name } = value;
      if (typeof tool !== 'string' || tool === '' || /[*?]/.test(tool)) throw invalid('renames one tool: give its name, not a glob');
      if (typeof name !== 'string') throw invalid('needs the new name as a string');
      return { include: [tool], transform: renameToolTo(() => name) };
    }
    case 'describeTool': {
      const { description } = value;
      if (typeof description !== 'function' && (typeof description !== 'string' || description.trim() === ''))
        throw invalid('needs a non-empty description or a function (current) => description');
      const textOf = (current: string) => {
        const text = typeof description === 'function' ? description(current) : description;
        if (typeof text !== 'string' || text.trim() === '') throw invalid('has a description function that returned no text');
        return text;
      };
      return {
        include: selection('tools', value.tools),
        transform: (tool) => ({ ...tool, descriptor: { ...tool.descriptor, description: textOf(tool.descriptor.description) } }),
      };
    }
    case 'hideArguments': {
      const values = value.arguments;
      if (!isPlainObject(values) || Object.keys(values).length === 0) throw invalid('needs the arguments to hide, { name: fixedValue }');
      return { include: selection('tools', value.tools), transform: hideToolArguments(values, at) };
    }
    case 'renameArguments': {
      const { names } = value;
      if (
        !isPlainObject(names) ||
        Object.keys(names).length === 0 ||
        Object.values(names).some((name) => typeof name !== 'string' || name === '')
      )
        throw invalid('needs the arguments to rename, { oldName: "newName" }');
      return { include: selection('tools', value.tools), transform: renameToolArguments(names, at) };
    }
    case 'namespaceTools': {
      const { namespace, include, exclude } = value;
      if (typeof namespace !== 'string' || namespace === '') throw invalid('needs a namespace');
      return {
        ...(include !== undefined && { include: selection('include', include) }),
        ...(exclude !== undefined && { exclude: selection('exclude', exclude) }),
        transform: namespaceTool(namespace),
      };
    }
    default:
      throw invalid('is not a tool transformation');
  }
}

/** Two tools may not end with one name; a clash the transforms did not cause is the registry's to report. */
function checkNames(before: readonly McpToolDefinition[], after: readonly McpToolDefinition[]): void {
  const seen = new Map<string, number>();
  after.forEach((tool, index) => {
    const first = seen.get(tool.name);
    if (first === undefined) return void seen.set(tool.name, index);
    if (before[first].name !== tool.name || before[index].name !== tool.name)
      throw new McpConfigurationError(Messages.nameClash(tool.name, after[first].site, tool.site));
  });
}
