import type { McpHandlerContext } from '../mcp-handler-context.interface.js';

/** What a prompt handler receives as its second argument (or through `@McpContext()`). @publicApi */
export interface McpPromptContext extends McpHandlerContext {
  /** Name of the prompt being rendered. */
  readonly promptName: string;
}
