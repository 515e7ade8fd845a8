/** An SSE event or comment as read off the wire. */
export interface SseItem {
  kind: 'event' | 'comment';
  /** `event:` field (undefined means the default `message` type). */
  event?: string;
  id?: string;
  /** The `data:` lines joined with `\n`; '' for an event with an empty data line. */
  data?: string;
  retry?: number;
  /** Text of a `:` comment line. */
  comment?: string;
}

/**
 * The one SSE reader of the tests: an incremental parser over a fetch body that yields events and comments in
 * arrival order, so a test can read a few events, then drop the connection.
 */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private readonly queue: SseItem[] = [];
  private ended = false;
  private pending?: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>;
  /** Everything received, for debugging failed assertions. */
  raw = '';

  constructor(readonly response: Response) {
    if (!response.body) throw new Error('response has no body');
    this.reader = response.body.getReader();
  }

  /** The next item, or undefined when the stream ended; rejects after `timeoutMs` without one. */
  async next(timeoutMs = 5_000): Promise<SseItem | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0 && !this.ended) await this.read(deadline, timeoutMs);
    return this.queue.shift();
  }

  /** The next event (skipping comments and retry-only frames), or undefined at the end. */
  async nextEvent(timeoutMs = 5_000): Promise<SseItem | undefined> {
    for (;;) {
      const item = await this.next(timeoutMs);
      if (!item || (item.kind === 'event' && item.data !== undefined)) return item;
    }
  }

  /** The next JSON-RPC message (the data of the next event), or undefined at the end. */
  async nextMessage(timeoutMs = 5_000): Promise<any> {
    const event = await this.nextEvent(timeoutMs);
    return event?.data === undefined ? undefined : JSON.parse(event.data);
  }

  /** The raw text of the first block (up to the first blank line), waiting for it; the whole text if the stream ends first. */
  async firstBlock(timeoutMs = 5_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!/\r?\n\r?\n/.test(this.raw) && !this.ended) await this.read(deadline, timeoutMs);
    return this.raw.split(/\r?\n\r?\n/)[0];
  }

  /** Every remaining item until the server ends the stream. */
  async readToEnd(timeoutMs = 5_000): Promise<SseItem[]> {
    const items: SseItem[] = [];
    for (let item = await this.next(timeoutMs); item; item = await this.next(timeoutMs)) items.push(item);
    return items;
  }

  /** Drops the connection (as a client whose network failed would). */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  get done(): boolean {
    return this.ended && this.queue.length === 0;
  }

  /** Reads one chunk (or the end) before `deadline`. */
  private async read(deadline: number, timeoutMs: number): Promise<void> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error(`no SSE item within ${timeoutMs} ms; received so far: ${JSON.stringify(this.raw)}`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), remaining);
    });
    const chunk = await Promise.race([this.pending ?? (this.pending = this.reader.read()), timeout]);
    clearTimeout(timer);
    if (chunk === 'timeout') return;
    this.pending = undefined;
    if (chunk.done) {
      this.ended = true;
      this.parse(true);
    } else {
      const text = this.decoder.decode(chunk.value, { stream: true });
      this.raw += text;
      this.buffer += text;
      this.parse(false);
    }
  }

  private parse(flush: boolean): void {
    this.buffer = this.buffer.replace(/\r\n?/g, '\n');
    let index: number;
    while ((index = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, index);
      this.buffer = this.buffer.slice(index + 2);
      this.queue.push(...parseBlock(block));
    }
    if (flush && this.buffer.trim() !== '') {
      this.queue.push(...parseBlock(this.buffer));
      this.buffer = '';
    }
  }
}

/** The items of one SSE block (the text between two blank lines): its comments, then its event if it has fields. */
function parseBlock(block: string): SseItem[] {
  const items: SseItem[] = [];
  const event: SseItem = { kind: 'event' };
  let hasField = false;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      items.push({ kind: 'comment', comment: line.slice(1).trim() });
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    hasField = true;
    if (field === 'data') data.push(value);
    else if (field === 'event') event.event = value;
    else if (field === 'id') event.id = value;
    else if (field === 'retry') event.retry = Number(value);
  }
  if (hasField) {
    if (data.length > 0) event.data = data.join('\n');
    items.push(event);
  }
  return items;
}

/** Parses a complete SSE body (a finished POST stream) into its items. */
export function parseSseBody(text: string): SseItem[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .flatMap(parseBlock);
}

/** The JSON-RPC messages carried by `message` events (skipping priming events with empty data). */
export function messagesOf(items: SseItem[]): any[] {
  return items.filter((item) => item.kind === 'event' && item.data !== undefined && item.data !== '').map((item) => JSON.parse(item.data!));
}

/** The JSON-RPC messages of a complete SSE body. */
export function sseMessages(text: string): any[] {
  return messagesOf(parseSseBody(text));
}

/** An SSE stream held open by the test, closed with `close()`. */
export interface OpenSse {
  status: number;
  contentType: string;
  headers: Headers;
  /** The first block (up to the blank line), or the whole body when the answer is not an event stream. */
  firstEvent: string;
  /** The stream's reader: its items still include the first event. Undefined for a non-SSE answer. */
  reader?: SseReader;
  close(): void;
}

/**
 * GETs `url` (Accept: text/event-stream unless `headers` says otherwise) and reads up to the first SSE event,
 * keeping the connection open (so it counts against stream limits) until `close()`. A non-SSE answer is read
 * whole. Gives up after `timeoutMs`.
 */
export async function openSse(url: string, headers: Record<string, string> = {}, timeoutMs = 5_000): Promise<OpenSse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetch(url, { method: 'GET', headers: { Accept: 'text/event-stream', ...headers }, signal: controller.signal });
    const contentType = response.headers.get('content-type') ?? '';
    const base = { status: response.status, contentType, headers: response.headers };
    if (!contentType.startsWith('text/event-stream'))
      return { ...base, firstEvent: await response.text(), close: () => controller.abort() };
    const reader = new SseReader(response);
    const firstEvent = await reader.firstBlock(timeoutMs);
    return {
      ...base,
      firstEvent,
      reader,
      close: () => {
        controller.abort();
        void reader.cancel();
      },
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The messages URL of an HTTP+SSE (2024-11-05) `endpoint` event. */
export function endpointOf(firstEvent: string): string {
  const data = /^data:\s*(.+)$/m.exec(firstEvent)?.[1];
  if (!/^event:\s*endpoint$/m.test(firstEvent) || !data) throw new Error(`not an endpoint event: ${firstEvent}`);
  return data.trim();
}
