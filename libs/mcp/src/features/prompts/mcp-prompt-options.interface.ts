/**
 * One argument of a prompt, as `prompts/list` describes it. Values always arrive as strings.
 * @publicApi
 */
export interface McpPromptArgument {
  name: string;
  title?: string;
  description?: string;
  /** `prompts/get` without it is refused with -32602. */
  required?: boolean;
}

/**
 * Options of `@McpPrompt()`.
 * @publicApi
 */
export interface McpPromptOptions {
  /** Wire name; defaults to the method name in snake_case. Must match `^[A-Za-z0-9_-]{1,64}$`. */
  name?: string;
  /** Human-readable display name. */
  title?: string;
  /** What the prompt is for; clients list prompts by it. Required. */
  description: string;
  /**
   * The prompt's arguments. Leave it out to derive them from a class-validator DTO on the first parameter (or
   * the `@McpArgs()` one): property names become argument names, `@McpProperty({ description })` their
   * descriptions, and properties without `@IsOptional()` are required.
   */
  arguments?: McpPromptArgument[];
}
