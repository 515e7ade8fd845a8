import { Injectable } from '@nestjs/common';

/** How many recent session ids are remembered (the oldest go first). */
const MAX_TRACKED_SESSIONS = 10_000;

/** 2025-era sessions seen here, so list changes reach their GET streams (the stream hub does not enumerate them). */
@Injectable()
export class McpRev20251125SessionTracker {
  private readonly ids = new Set<string>();

  seen(sessionId: string | undefined): void {
    if (sessionId === undefined || sessionId === '' || sessionId.length > 256) return;
    this.ids.delete(sessionId);
    this.ids.add(sessionId);
    if (this.ids.size > MAX_TRACKED_SESSIONS) this.ids.delete(this.ids.values().next().value as string);
  }

  sessions(): Iterable<string> {
    return this.ids;
  }
}
