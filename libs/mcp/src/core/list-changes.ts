import { Injectable } from '@nestjs/common';

/** A list a client can be told has changed (`notifications/<kind>/list_changed`). */
export type McpListKind = 'tools' | 'prompts' | 'resources';

type Listener = (kind: McpListKind) => void;

/**
 * The port between what changes a list at runtime (the feature registries) and what tells clients about it (the
 * eras' list-changed notifier): features cannot import eras, so both meet here.
 */
@Injectable()
export class McpListChanges {
  private readonly listeners: Listener[] = [];

  /** Called by the notifier at boot; every change reaches every listener. */
  listen(listener: Listener): void {
    this.listeners.push(listener);
  }

  changed(kind: McpListKind): void {
    for (const listener of this.listeners) listener(kind);
  }
}
