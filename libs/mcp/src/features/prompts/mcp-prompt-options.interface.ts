import type { McpStandardSchema } from '../../core/standard-schema.js';

/** One argument of a prompt, as `prompts/list` describes it. Values always arrive as strings. @publicApi */
export interface McpPromptArgument {
  name: string;
  title?: string;
  description?: string;
  /** `prompts/get` without it is refused with -32602. */
  required?: boolean;
}

/** Options of `@McpPrompt()`. @publicApi */
export interface McpPromptOptions {
  /** Wire name; defaults to the method name in snake_case. Must match `^[A-Za-z0-9_-]{1,64}$`. */
  name?: string;
  /** Human-readable display name. */
  title?: string;
  /** What the prompt is for; clients list prompts by it. Required. */
  description: string;
  /**
   * The prompt's arguments: a list, or a Standard Schema validator of an object of strings (Zod 4, Valibot,
   * ArkType, …), whose properties become the arguments (descriptions from the schema's, required as it says) and
   * which validates them on every `prompts/get` (the method receives its parsed value). Leave it out to derive them
   * from a class-validator DTO on the first parameter (or the `@McpArgs()` one): property names become argument
   * names, `@McpProperty({ description })` their descriptions, and properties without `@IsOptional()` are required.
   * @example arguments: z.object({ topic: z.string().describe('What to write about'), tone: z.enum(['dry', 'warm']).optional() })
   */
  arguments?: McpPromptArgument[] | McpStandardSchema;
}
