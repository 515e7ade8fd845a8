import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { SseWriter } from '../http/sse-writer.js';
import { eventId, type SseEventStore, type StoredSseEvent } from './sse-event.store.js';

/**
 * One logical SSE stream (a POST's response or a session's GET stream). It outlives its connection: its messages are
 * stored, and a GET with `Last-Event-ID` replays them and re-attaches (or, on another instance, follows it).
 */
export class LiveStream {
  private sequence = 0;
  private writer?: SseWriter;
  private persisted: Promise<void> = Promise.resolve();
  private completed = false;
  private ended = false;
  private publish?: (event: StoredSseEvent) => void;
  private lastSent?: string;

  constructor(
    readonly id: string,
    /** Events are stored only for streams of a session (replay needs one). */
    readonly sessionId: string | undefined,
    private readonly events: SseEventStore | undefined,
  ) {}

  get resumable(): boolean {
    return this.sessionId !== undefined && this.events !== undefined;
  }

  get done(): boolean {
    return this.completed;
  }

  /** The id of the last event sent (the priming event or a message), for a resume to tell whether it has caught up. */
  get lastEventId(): string | undefined {
    return this.lastSent;
  }

  /** Sends the rest of the stream to `writer`; a connection it replaces is ended, not left hanging. */
  attach(writer: SseWriter): void {
    if (this.writer && this.writer !== writer) this.writer.end();
    this.writer = writer;
  }

  detach(writer: SseWriter): void {
    if (this.writer === writer) this.writer = undefined;
  }

  /**
   * The priming event (an id and empty data) gives the client a `Last-Event-ID` before any message, and the
   * `retry:` it must wait before reconnecting if the server closes the connection (SEP-1699).
   */
  prime(retryMs: number): void {
    if (!this.resumable) return;
    const id = eventId(this.id, this.sequence++);
    this.lastSent = id;
    this.persist(id, null); // stored too: a client may resume from the priming id alone
    this.writer?.event('', { id, retryMs });
  }

  send(message: JsonRpcMessage): void {
    const id = this.resumable ? eventId(this.id, this.sequence++) : undefined;
    if (id !== undefined) this.persist(id, message);
    this.lastSent = id;
    this.writer?.event(JSON.stringify(message), { event: 'message', id });
  }

  /** Hands each event to `publish` once stored, for followers elsewhere; an ended stream publishes its end at once. */
  follow(publish: (event: StoredSseEvent) => void): void {
    this.publish = publish;
    if (this.ended) void this.persisted.then(() => publish({ id: eventId(this.id, this.sequence), message: null, end: true }));
  }

  /** Stores an end marker after the last event, so another instance resuming it replays rather than follows. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.resumable && this.sequence > 0) this.persist(eventId(this.id, this.sequence++), null, true);
  }

  /** Stores in order, after the previous event; the write to the socket does not wait for it. */
  private persist(id: string, message: JsonRpcMessage | null, end?: true): void {
    const { sessionId, events } = this;
    if (sessionId === undefined || !events) return;
    const event: StoredSseEvent = end ? { id, message, end } : { id, message };
    this.persisted = this.persisted
      .then(() => events.append(sessionId, this.id, event))
      .then(() => this.publish?.(event))
      .catch(() => undefined);
  }

  /** Ends the stream after its last message (the response of a POST stream). */
  complete(): void {
    this.completed = true;
    this.writer?.end();
  }

  /** Resolves when every event sent so far is stored. */
  flushed(): Promise<void> {
    return this.persisted;
  }
}
