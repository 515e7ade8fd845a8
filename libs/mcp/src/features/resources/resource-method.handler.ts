import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import type { McpResourceRegistry } from './mcp-resource.registry.js';

/**
 * A `resources/*` method: served once something declares a resource or a template, or when resources may be
 * registered at runtime (`listChanged: { resources: true }`); otherwise the method stays unknown (-32601), as
 * the capability is not declared either.
 */
export abstract class McpResourceMethodHandler implements McpMethodHandler {
  abstract readonly method: string;

  protected constructor(protected readonly registry: McpResourceRegistry) {}

  isServed(): boolean {
    return this.registry.served;
  }

  abstract handle(call: McpCall): Promise<Record<string, unknown>> | Record<string, unknown>;
}
