import { Injectable } from '@nestjs/common';
import { McpPromptRegistry } from '../prompts/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../resources/mcp-resource.registry.js';
import { admits } from '../components/component.registry.js';
import type { CompletionTarget } from './completion-target.js';
import type { McpCompletionRef } from './mcp-completion-options.interface.js';

/** What a completion ref points at, read from the prompt and resource registries. */
@Injectable()
export class McpCompletionTargets {
  constructor(
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
  ) {}

  /**
   * The target of a ref, or undefined when nothing declares it. A `ref/resource` names a template by its
   * `uriTemplate`; unless `exact`, a concrete URI is accepted too (the spec allows "URI or URI template"): a fixed
   * resource has no arguments, a templated one the variables of the template it matches. What a caller holding
   * `scopes` may not see (a scoped upstream's) is not there for it.
   */
  find(ref: McpCompletionRef, exact: boolean, scopes?: readonly string[]): CompletionTarget | undefined {
    if (ref.type === 'ref/prompt') {
      const prompt = this.prompts.get(ref.name);
      return prompt && admits(prompt, scopes) ? { ref, arguments: prompt.arguments.map((argument) => argument.name) } : undefined;
    }
    const template = this.resources.getTemplate(ref.uri);
    if (template) return admits(template, scopes) ? { ref, arguments: template.matcher.variables } : undefined;
    if (exact) return undefined;
    const match = this.resources.resolve(ref.uri);
    if (!match || !admits(match, scopes)) return undefined;
    if (match.uriTemplate === undefined) return { ref, arguments: [] };
    const matched = this.resources.getTemplate(match.uriTemplate);
    return matched && { ref: { type: 'ref/resource', uri: match.uriTemplate }, arguments: matched.matcher.variables };
  }
}
