import type { McpArgumentValidator } from '../../execution/validation/argument-validator.interface.js';
import type { McpFeatureHandler } from '../feature-handler.js';
import type { McpPromptContext } from './mcp-prompt-context.interface.js';
import type { McpPromptArgument } from './mcp-prompt-options.interface.js';
import type { McpComponentEntry } from '../components/component.registry.js';

/** A prompt as `prompts/list` sends it. */
export interface McpPromptDescriptor {
  name: string;
  title?: string;
  description: string;
  arguments?: McpPromptArgument[];
}

/** Everything `prompts/get` needs about a prompt, computed once at boot. */
export interface McpPromptDefinition extends McpComponentEntry<McpPromptDescriptor> {
  readonly name: string;
  /** Declared arguments (from the options or the DTO). */
  readonly arguments: readonly McpPromptArgument[];
  /** Validates the arguments when they come from a DTO or a Standard Schema (a declared list is checked on its own). */
  readonly validator?: McpArgumentValidator;
  readonly handler: McpFeatureHandler<McpPromptContext>;
}

/** A prompt's definition from its checked parts, decorated or registered at runtime (the descriptor follows). */
export function promptDefinition(
  parts: Omit<McpPromptDefinition, 'descriptor'> & { readonly title?: string; readonly description: string },
): McpPromptDefinition {
  const { title, description, ...definition } = parts;
  const descriptor: McpPromptDescriptor = {
    name: parts.name,
    ...(title !== undefined && { title }),
    description,
    ...(parts.arguments.length > 0 && { arguments: parts.arguments.map((argument) => ({ ...argument })) }),
  };
  return { ...definition, descriptor };
}
