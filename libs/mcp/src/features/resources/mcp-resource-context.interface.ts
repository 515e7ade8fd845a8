import type { McpHandlerContext } from '../mcp-handler-context.interface.js';

/** What a resource handler receives as its second argument (or through `@McpContext()`). @publicApi */
export interface McpResourceContext extends McpHandlerContext {
  /** The URI being read, exactly as the client sent it. */
  readonly uri: string;
  /** `name` of the resource or template that matched. */
  readonly resourceName: string;
  /** The template that matched, for a templated resource. */
  readonly uriTemplate?: string;
}
