import { Injectable } from '@nestjs/common';

/** A list a client can be told has changed (`notifications/<kind>/list_changed`). */
export type McpListKind = 'tools' | 'prompts' | 'resources';

type Listener = (kind: McpListKind) => void;

/** Where the registries (features) tell the list-changed notifier (eras) about runtime changes: features cannot import eras. */
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
