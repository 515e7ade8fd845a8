import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { MCP_STORE, type McpKeyValueStore } from '../../stores/key-value.store.js';
import { storeKey } from '../../stores/store-key.js';

/** One SSE event kept for replay. */
export interface StoredSseEvent {
  id: string;
  /** Null for the priming event, which only gives the client an id to resume from. */
  message: JsonRpcMessage | null;
  /** The marker stored when the stream ended on its instance (null message); without it, live or its instance died. */
  end?: true;
  /** The stand-in of an event over `http.streams.maxEventBytesPerStream` alone: sent live, its id stays resumable. */
  tooLarge?: true;
}

/** The sequence number of an event id (`<streamId>.<n>`), or NaN. */
export const sequenceOf = (id: string): number => Number(id.slice(id.lastIndexOf('.') + 1));

/** Event ids are `<streamId>.<sequence>`: the stream is read back from the id (a SHOULD of Streamable HTTP's resumability). */
export const eventId = (streamId: string, sequence: number): string => `${streamId}.${sequence}`;

function streamOf(id: string): string | undefined {
  const dot = id.lastIndexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}

/** Events of resumable streams keyed by session and stream: a `Last-Event-ID` of another session replays nothing. */
@Injectable()
export class SseEventStore {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /**
   * Keeps `event`, dropping the stream's oldest beyond `http.streams.maxEventsPerStream` / `maxEventBytesPerStream`;
   * one over the byte bound alone is kept as a stand-in (it would push out every other event and still not fit).
   */
  async append(sessionId: string, streamId: string, event: StoredSseEvent): Promise<void> {
    const { maxEventsPerStream, maxEventBytesPerStream: maxBytes } = this.options.http.streams;
    const oversized: StoredSseEvent = { id: event.id, message: null, tooLarge: true };
    const ttlMs = this.options.sessions.idleTtlMs;
    await this.store.append(this.key(sessionId, streamId), event, maxEventsPerStream, ttlMs, { maxBytes, oversized });
  }

  /**
   * The stream of a `Last-Event-ID`, the events after it and whether it ended; undefined when the id is unknown in
   * this session or the replay would skip an event too large to keep: a gap must not pass for a replay.
   */
  async after(sessionId: string, lastEventId: string): Promise<{ streamId: string; events: StoredSseEvent[]; ended: boolean } | undefined> {
    const streamId = streamOf(lastEventId);
    if (!streamId) return undefined;
    const events = await this.store.list<StoredSseEvent>(this.key(sessionId, streamId));
    const index = events.findIndex((event) => event.id === lastEventId);
    if (index < 0) return undefined;
    const later = events.slice(index + 1);
    if (later.some((event) => event.tooLarge === true)) return undefined;
    return { streamId, events: later.filter((event) => event.message !== null), ended: later.some((event) => event.end === true) };
  }

  private key(sessionId: string, streamId: string): string {
    // The stream id comes from the client's Last-Event-ID: escaped, it cannot reach past this session's keys.
    return storeKey('events', sessionId, streamId);
  }
}
