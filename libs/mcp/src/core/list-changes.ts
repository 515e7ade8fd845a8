import { Injectable } from '@nestjs/common';

/** A list a client can be told has changed (`notifications/<kind>/list_changed`). */
export type McpListKind = 'tools' | 'prompts' | 'resources';

type Listener = (kind: McpListKind) => void;

/**
 * Where the app (`McpListChangedNotifier`) and the registries (features) tell the list-changed announcer (eras) what
 * changed: neither can import eras.
 */
@Injectable()
export class McpListChanges {
  private readonly listeners: Listener[] = [];

  /** Called by the announcer at boot; every change reaches every listener. */
  listen(listener: Listener): void {
    this.listeners.push(listener);
  }

  changed(kind: McpListKind): void {
    for (const listener of this.listeners) listener(kind);
  }
}
