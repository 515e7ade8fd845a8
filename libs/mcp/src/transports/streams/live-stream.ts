import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { SseWriter } from '../http/sse-writer.js';
import { eventId, type SseEventStore } from './sse-event.store.js';

/**
 * One logical SSE stream (a POST's response stream or a session's GET stream). It outlives its HTTP
 * connection: when the client drops, messages keep being stored, and a GET with `Last-Event-ID` replays them
 * and re-attaches a new connection.
 */
export class LiveStream {
  private sequence = 0;
  private writer?: SseWriter;
  private persisted: Promise<void> = Promise.resolve();
  private completed = false;

  constructor(
    readonly id: string,
    /** Events are stored only for streams of a session (replay needs one). */
    private readonly sessionId: string | undefined,
    private readonly events: SseEventStore | undefined,
  ) {}

  get resumable(): boolean {
    return this.sessionId !== undefined && this.events !== undefined;
  }

  get done(): boolean {
    return this.completed;
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
    this.persist(id, null); // stored too: a client may resume from the priming id alone
    this.writer?.event('', { id, retryMs });
  }

  send(message: JsonRpcMessage): void {
    const id = this.resumable ? eventId(this.id, this.sequence++) : undefined;
    if (id !== undefined) this.persist(id, message);
    this.writer?.event(JSON.stringify(message), { event: 'message', id });
  }

  /** Stores in order, after the previous event; the write to the socket does not wait for it. */
  private persist(id: string, message: JsonRpcMessage | null): void {
    const { sessionId, events } = this;
    if (sessionId === undefined || !events) return;
    this.persisted = this.persisted.then(() => events.append(sessionId, this.id, { id, message })).catch(() => undefined);
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
