import type { McpPromptContext } from './mcp-prompt-context.interface.js';
import type { McpPromptArgument } from './mcp-prompt-options.interface.js';
import type { McpStandardSchema } from '../../core/standard-schema.js';

/**
 * A prompt added at runtime with `McpPromptRegistry.register()`: the options of `@McpPrompt()` plus a name and a
 * handler, checked like a decorated prompt, without Nest guards, interceptors and filters (there is no method).
 * @publicApi
 */
export interface McpPromptRegistration<Args = Record<string, string>> {
  /** Wire name, `^[A-Za-z0-9_-]{1,64}$`; a name in use is an error (use `replace()`). */
  name: string;
  title?: string;
  /** What the prompt is for; clients list prompts by it. Required, as for `@McpPrompt()`. */
  description: string;
  arguments?: McpPromptArgument[];
  /**
   * A class-validator DTO, or a Standard Schema validator of an object (Zod 4, Valibot, ArkType, …), describing
   * (and validating) the arguments; not with `arguments`.
   */
  args?: (new (...params: never[]) => object) | McpStandardSchema;
  /** What `@McpPrompt()` methods return: a string, a message, messages, or `{ description?, messages }`. */
  handler: (args: Args, context: McpPromptContext) => unknown;
}

/** A prompt registered at runtime: replace or remove it later. @publicApi */
export interface McpPromptHandle {
  readonly name: string;
  /** Swaps the definition (same name), announcing `notifications/prompts/list_changed`. */
  replace<Args = Record<string, string>>(registration: Omit<McpPromptRegistration<Args>, 'name'>): McpPromptHandle;
  /** Removes the prompt; false when it was already gone. */
  remove(): boolean;
}
