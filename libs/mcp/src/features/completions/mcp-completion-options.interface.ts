/**
 * What a completion is for: an argument of a prompt, or a variable of a resource template (its `uriTemplate`,
 * exactly as declared).
 * @publicApi
 */
export type McpCompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** Options of `@McpCompletion()`. @publicApi */
export interface McpCompletionOptions {
  ref: McpCompletionRef;
  /** The prompt argument or template variable completed. */
  argument: string;
}

/**
 * What a completion method may return: the values, or the values with the total number of matches and whether
 * there are more than those sent. Only the first 100 values are sent (then `hasMore` is true).
 * @publicApi
 */
export type McpCompletionValue = string[] | { values: string[]; total?: number; hasMore?: boolean };
