import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

/**
 * The part of a ServerResponse a stream writes to, recording every frame (`end()` adds `'<end>'`). By default its
 * socket takes every frame at once; with `stalledAbove` it takes nothing, as with a reader that stopped reading:
 * frames stay buffered and `write()` reports backpressure once more than that many bytes wait, until {@link flush}.
 * `end()` and `destroy()` emit `close` as a real socket does.
 */
export class RecordingResponse extends EventEmitter {
  writableLength = 0;
  writableEnded = false;
  destroyed = false;
  writableNeedDrain = false;
  readonly frames: string[] = [];

  constructor(private readonly options: { stalledAbove?: number } = {}) {
    super();
  }

  /** This double where a ServerResponse is expected. */
  get asServerResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }

  writeHead(): this {
    return this;
  }
  flushHeaders(): void {}
  write(frame: string): boolean {
    this.frames.push(frame);
    if (this.options.stalledAbove === undefined) return true;
    this.writableLength += Buffer.byteLength(frame);
    this.writableNeedDrain = this.writableLength > this.options.stalledAbove;
    return !this.writableNeedDrain;
  }
  end(): void {
    this.writableEnded = true;
    this.frames.push('<end>');
    queueMicrotask(() => this.emit('close'));
  }
  destroy(): void {
    this.destroyed = true;
    queueMicrotask(() => this.emit('close'));
  }
  /** A stalled reader catches up. */
  flush(): void {
    this.writableLength = 0;
    this.writableNeedDrain = false;
    this.emit('drain');
  }
}
