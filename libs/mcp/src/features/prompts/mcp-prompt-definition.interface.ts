import type { McpArgumentValidator } from '../../execution/validation/argument-validator.interface.js';
import type { McpFeatureHandler } from '../feature-handler.js';
import type { McpPromptContext } from './mcp-prompt-context.interface.js';
import type { McpPromptArgument } from './mcp-prompt-options.interface.js';

/** A prompt as `prompts/list` sends it. */
export interface McpPromptDescriptor {
  name: string;
  title?: string;
  description: string;
  arguments?: McpPromptArgument[];
}

/** Everything `prompts/get` needs about a prompt, computed once at boot. */
export interface McpPromptDefinition {
  readonly name: string;
  /** `ClassName#method`, for messages. */
  readonly site: string;
  readonly descriptor: McpPromptDescriptor;
  /** Declared arguments (from the options or the DTO). */
  readonly arguments: readonly McpPromptArgument[];
  /** Validates the arguments when they come from a DTO or a Standard Schema (a declared list is checked on its own). */
  readonly validator?: McpArgumentValidator;
  readonly handler: McpFeatureHandler<McpPromptContext>;
  /** Registered with `McpPromptRegistry.register()` (only those can be replaced or removed). */
  readonly runtime?: boolean;
  /** Scopes a caller must hold to see or get it (a scoped upstream's). */
  readonly scopes?: readonly string[];
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
