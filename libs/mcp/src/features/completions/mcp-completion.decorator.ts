import 'reflect-metadata';
import { MCP_COMPLETION_METADATA } from '../../core/mcp.constants.js';
import type { McpCompletionOptions } from './mcp-completion-options.interface.js';

/**
 * Makes a provider method suggest values for one argument of a prompt or one variable of a resource template
 * (`completion/complete`). It receives the partial value and a {@link McpCompletionContext} (the other
 * arguments already filled in) and returns the matching values, or `{ values, total?, hasMore? }`. At most
 * 100 values are sent. Stack the decorator to complete several arguments with one method.
 * @publicApi
 * @example
 * @McpCompletion({ ref: { type: 'ref/prompt', name: 'review_code' }, argument: 'language' })
 * languages(value: string) { return ['go', 'python', 'typescript'].filter((name) => name.startsWith(value)); }
 */
export function McpCompletion(options: McpCompletionOptions): MethodDecorator {
  return (_target, _propertyKey, descriptor) => {
    const method = descriptor.value as object;
    const existing = (Reflect.getMetadata(MCP_COMPLETION_METADATA, method) as McpCompletionOptions[] | undefined) ?? [];
    // Decorators apply bottom-up: prepend so the list keeps the order of the source.
    Reflect.defineMetadata(MCP_COMPLETION_METADATA, [options, ...existing], method);
    return descriptor;
  };
}
