import { Injectable } from '@nestjs/common';
import { McpListChanges } from './list-changes.js';

/**
 * Announces that a list changed: `notifications/<kind>/list_changed` goes to `subscriptions/listen` streams and
 * 2025-era GET streams on every instance. Only lists enabled in `lists.listChanged` are announced.
 * @publicApi
 * @example
 * // McpModule.forRoot({ ..., lists: { listChanged: { tools: true } } })
 * constructor(private readonly lists: McpListChangedNotifier) {}
 * enableBetaTools() {
 *   this.flags.beta = true;
 *   this.lists.toolsChanged();
 * }
 */
@Injectable()
export class McpListChangedNotifier {
  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(private readonly changes: McpListChanges) {}

  toolsChanged(): void {
    this.changes.changed('tools');
  }

  promptsChanged(): void {
    this.changes.changed('prompts');
  }

  resourcesChanged(): void {
    this.changes.changed('resources');
  }
}
