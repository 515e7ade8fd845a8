import type { Response } from 'express';

/** Headers of every SSE response: no caching or transformation, no proxy buffering. */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

/** Writes Server-Sent Events frames; one JSON-RPC message per `data:` line (JSON never contains raw newlines). */
export class SseWriter {
  constructor(private readonly response: Response) {}

  open(status = 200, extraHeaders: Record<string, string> = {}): void {
    this.response.writeHead(status, { ...SSE_HEADERS, ...extraHeaders });
    this.response.flushHeaders();
  }

  event(data: string, options: { event?: string; id?: string; retryMs?: number } = {}): boolean {
    if (this.closed) return false;
    let frame = '';
    if (options.id !== undefined) frame += `id: ${options.id}\n`;
    if (options.retryMs !== undefined) frame += `retry: ${options.retryMs}\n`;
    if (options.event !== undefined) frame += `event: ${options.event}\n`;
    frame += `data: ${data}\n\n`;
    return this.response.write(frame);
  }

  /** A `retry:` hint (ms) tells the client how long to wait before reconnecting. */
  retry(milliseconds: number): void {
    if (!this.closed) this.response.write(`retry: ${milliseconds}\n\n`);
  }

  comment(text: string): void {
    if (!this.closed) this.response.write(`: ${text}\n\n`);
  }

  end(): void {
    if (!this.closed) this.response.end();
  }

  get closed(): boolean {
    return this.response.writableEnded || this.response.destroyed;
  }
}
