import { Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { completionKey, describeRef } from './completion-target.js';
import type { McpCompletionDefinition } from './mcp-completion-definition.interface.js';
import type { McpCompletionRef } from './mcp-completion-options.interface.js';

/** The completers of one module instance, filled once at boot by the explorer; the request path only reads it. */
@Injectable()
export class McpCompletionRegistry {
  private readonly completers = new Map<string, McpCompletionDefinition>();

  /** Adds a completer; a second one for the same argument is a boot error naming both sites. */
  add(completer: McpCompletionDefinition): void {
    const key = completionKey(completer.ref, completer.argument);
    const existing = this.completers.get(key);
    if (existing)
      throw new McpConfigurationError(
        McpMessages.duplicateCompletion(describeRef(completer.ref), completer.argument, existing.site, completer.site),
      );
    this.completers.set(key, completer);
  }

  get(ref: McpCompletionRef, argument: string): McpCompletionDefinition | undefined {
    return this.completers.get(completionKey(ref, argument));
  }

  all(): readonly McpCompletionDefinition[] {
    return [...this.completers.values()];
  }

  get size(): number {
    return this.completers.size;
  }
}
