import type { ServerResponse } from 'node:http';

/** Headers of every SSE response: no caching or transformation, no proxy buffering. */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

/** How many bytes a connection may leave unflushed, and what to do once its reader is cut for passing that. */
export interface SseByteBudget {
  maxBufferedBytes: number;
  onCut(): void;
}

/**
 * Writes Server-Sent Events frames, one JSON-RPC message per `data:` line (JSON has no raw newlines). A reader that
 * stops reading makes frames wait in memory: past the budget of unflushed bytes the connection is destroyed (an end
 * would queue behind the backlog) and the frame dropped. One frame may pass it, so a large message still gets through.
 */
export class SseWriter {
  private cut = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly budget: SseByteBudget,
  ) {}

  open(status = 200, extraHeaders: Record<string, string> = {}): void {
    this.response.writeHead(status, { ...SSE_HEADERS, ...extraHeaders });
    this.response.flushHeaders();
  }

  /** False when the frame was not taken, or when the socket asks to wait for `drained()` before more. */
  event(data: string, options: { event?: string; id?: string; retryMs?: number } = {}): boolean {
    let frame = '';
    if (options.id !== undefined) frame += `id: ${options.id}\n`;
    if (options.retryMs !== undefined) frame += `retry: ${options.retryMs}\n`;
    if (options.event !== undefined) frame += `event: ${options.event}\n`;
    frame += `data: ${data}\n\n`;
    return this.write(frame);
  }

  /** A `retry:` hint (ms) tells the client how long to wait before reconnecting. */
  retry(milliseconds: number): void {
    this.write(`retry: ${milliseconds}\n\n`);
  }

  /** Keep-alives go through the budget too: a stalled reader over it is cut at the next one. */
  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  end(): void {
    if (!this.closed) this.response.end();
  }

  /** Resolves once the socket has taken what was written (or the connection closed): for long replays. */
  drained(): Promise<void> {
    if (this.closed || !this.response.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.on('drain', done);
      this.response.on('close', done);
    });
  }

  get closed(): boolean {
    return this.response.writableEnded || this.response.destroyed;
  }

  private write(frame: string): boolean {
    if (this.closed) return false;
    if (this.response.writableLength > this.budget.maxBufferedBytes) {
      this.cutReader();
      return false;
    }
    return this.response.write(frame);
  }

  private cutReader(): void {
    if (this.cut) return;
    this.cut = true;
    this.response.destroy();
    this.budget.onCut();
  }
}
