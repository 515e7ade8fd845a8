import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage, JsonRpcResponse } from '../../core/json-rpc/json-rpc.types.js';
import type { LiveStream } from '../streams/live-stream.js';
import type { McpStreamHub } from '../streams/stream-hub.js';
import { sendJson, sendStatus } from './http-json-rpc.responses.js';
import type { SseWriter } from './sse-writer.js';

/** The answer to one POST: JSON, or, once the call sends a message and the client accepts SSE, an event stream. */
export class PostReply {
  private stream?: LiveStream;
  private writer?: SseWriter;
  private abandoned = false;
  private finished = false;
  private refusal?: { status: number; headers: Record<string, string> };

  constructor(
    private readonly response: ServerResponse,
    private readonly hub: McpStreamHub,
    private readonly tenant: string,
    private readonly sessionId: string | undefined,
    /** Set for clients whose revision primes streams (older ones choke on an empty `data`): the priming `retry:` hint. */
    private readonly primeRetryMs: number | undefined,
  ) {}

  /** Answers with this HTTP status instead of 200 (the body stays the JSON-RPC answer). */
  refuse(status: number, headers: Record<string, string>): void {
    this.refusal = { status, headers };
  }

  /** The client closed the connection before the answer: nothing more is written, an opened stream is let go. */
  abandon(): void {
    this.abandoned = true;
    if (this.stream) this.hub.release(this.stream);
  }

  /** Runs `listener` if the client closes the connection before the answer (then abandoned). */
  onAbandon(listener: () => void): void {
    this.response.on('close', () => {
      if (this.finished) return;
      this.abandon();
      listener();
    });
  }

  send(message: JsonRpcMessage): void {
    if (this.abandoned) return;
    this.ensureStream()?.send(message);
  }

  /** Ends the connection (after priming and a `retry:` hint) but not the stream: the client resumes with GET. */
  closeConnection(retryMs: number): void {
    // Closing asks the client to poll: it needs an event id to resume from, whatever its version.
    const stream = this.ensureStream(retryMs);
    if (!stream || !this.writer) return;
    this.writer.retry(retryMs);
    stream.detach(this.writer);
    this.writer.end();
  }

  private ensureStream(primeRetryMs = this.primeRetryMs): LiveStream | undefined {
    if (this.stream) return this.stream;
    if (this.response.headersSent) return undefined;
    const stream = this.hub.open(this.sessionId);
    const writer = this.hub.connect(this.response, this.tenant, (closed) => stream.detach(closed), stream.id);
    writer.open();
    stream.attach(writer);
    if (primeRetryMs !== undefined) stream.prime(primeRetryMs);
    this.stream = stream;
    this.writer = writer;
    return stream;
  }

  /** Sends the answer (`status` unless refused: an era may give an error its own status) and ends the reply. */
  finish(answer: JsonRpcResponse | undefined, status = 200): void {
    this.finished = true;
    if (this.abandoned) return;
    if (this.stream) {
      if (answer) this.stream.send(answer);
      this.stream.complete();
      this.hub.release(this.stream);
      return;
    }
    if (answer) return sendJson(this.response, this.refusal?.status ?? status, answer, this.refusal?.headers);
    // Notifications and client responses: 202 and no body; so is a request the client cancelled.
    sendStatus(this.response, 202);
  }
}
