import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { McpClientError } from '../mcp-client.error.js';

/**
 * Feeds an SSE body to `onEvent` until it ends; an event whose data passes `maxBytes` ends the stream with
 * `TOO_LARGE` (eventsource-parser's buffer bound). Resolves when the stream ends, rejects on a read error.
 */
export async function readEventStream(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  onEvent: (event: EventSourceMessage) => void,
  onRetry?: (retryMs: number) => void,
): Promise<void> {
  if (!body) return;
  const decoder = new TextDecoder();
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: maxBytes,
    // The buffer bound holds only for an event split over chunks: one that arrives whole is measured here.
    onEvent: (event) => {
      if (failure) return;
      if (event.data.length * 3 > maxBytes && Buffer.byteLength(event.data) > maxBytes) failure = tooLarge(maxBytes);
      else onEvent(event);
    },
    ...(onRetry && { onRetry }),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure ??= tooLarge(maxBytes);
    },
  });
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
  }
}

export function tooLarge(maxBytes: number): McpClientError {
  return new McpClientError('TOO_LARGE', `The server sent a message larger than ${maxBytes} bytes`);
}

/** Parses a JSON text from the server, or fails with `PROTOCOL`. */
export function parseServerJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new McpClientError('PROTOCOL', 'The server sent a body that is not JSON');
  }
}
