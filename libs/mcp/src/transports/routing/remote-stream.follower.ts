import type { SseWriter } from '../http/sse-writer.js';
import type { McpInstanceLease } from '../../sessions/mcp-instance-lease.service.js';
import { sequenceOf, type SseEventStore, type StoredSseEvent } from '../streams/sse-event.store.js';
import type { McpInstanceRouter } from './mcp-instance.router.js';

/** What a follower sends to the instance holding a stream: publish its events from now on. */
export interface FollowRequest {
  follow: { sessionId: string; streamId: string };
}

/** What the holder publishes for a followed stream: each event once stored (the last one with `end`). */
export interface FollowedEvent {
  event: StoredSseEvent;
}

/** The instance a stream id (`<instance>_<random>`) was opened on; undefined for an older release's id. */
export function instanceOfStream(streamId: string): string | undefined {
  const cut = streamId.indexOf('_');
  return cut > 0 ? streamId.slice(0, cut) : undefined;
}

export interface RemoteStreamSource {
  sessionId: string;
  streamId: string;
  holder: string;
  /** The id of the last event the client has (replayed or its own `Last-Event-ID`). */
  afterId: string;
}

/**
 * Continues on `writer` a live stream held by another instance, from the events it publishes. The store is the
 * reference: an event out of sequence is read back from it, and so is the store every `lease.renewMs` (with the
 * holder's lease checked), so a lost message or a dead holder ends the connection within a lease period.
 */
export function followRemoteStream(
  source: RemoteStreamSource,
  writer: SseWriter,
  deps: { router: McpInstanceRouter; events: SseEventStore; lease: McpInstanceLease },
): void {
  const { sessionId, streamId, holder } = source;
  let last = source.afterId;
  let finished = false;
  let queue: Promise<void> = Promise.resolve();

  const write = async (event: StoredSseEvent): Promise<boolean> => {
    if (!writer.event(JSON.stringify(event.message), { event: 'message', id: event.id })) await writer.drained();
    last = event.id;
    return !writer.closed;
  };
  const catchUp = async (): Promise<boolean> => {
    const missed = await deps.events.after(sessionId, last);
    if (!missed) return false; // trimmed past the client's position: nothing more can be continued
    for (const event of missed.events) if (!(await write(event))) return false;
    return !missed.ended;
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    void held.then((release) => release()).catch(() => undefined);
    writer.end();
  };
  // One step at a time, in order; a step that resolves false (or fails) ends the connection.
  const run = (step: () => Promise<boolean>) => {
    queue = queue.then(async () => {
      if (finished) return;
      if (writer.closed || !(await step().catch(() => false))) finish();
    });
  };

  const held = deps.router.hold({ kind: 'stream-events', sessionId, streamId }, (message) => {
    const { event } = (message ?? {}) as Partial<FollowedEvent>;
    if (!event || typeof event.id !== 'string') return;
    run(async () => {
      if (event.end) return (await catchUp()) && false;
      if (sequenceOf(event.id) <= sequenceOf(last)) return true; // written already (read from the store)
      if (sequenceOf(event.id) === sequenceOf(last) + 1 && event.message !== null) return write(event);
      return catchUp();
    });
  });
  const timer = setInterval(() => run(async () => (await deps.lease.isAlive(holder)) && catchUp()), deps.lease.renewMs);
  timer.unref();

  // Subscribed first, so nothing published after the request can be missed; then what was stored meanwhile.
  run(async () => {
    await held;
    const request: FollowRequest = { follow: { sessionId, streamId } };
    await deps.router.forward({ kind: 'instance', instanceId: holder }, request);
    return catchUp();
  });
}
