import type { Pool } from 'undici';
import { McpClientError } from '../mcp-client.error.js';
import { BodyTooLargeError, readBoundedText } from '../../core/bounded-text.js';
import { tooLarge } from './bounded-body.js';

/** What the transports read of an HTTP answer (a subset of fetch's `Response`). */
export interface McpHttpAnswer {
  readonly status: number;
  readonly ok: boolean;
  header(name: string): string | undefined;
  /** The body, as bytes; read it to the end (or as `text`) or `discard()` it. */
  readonly body: AsyncIterable<Uint8Array>;
  /** The whole body as text, refused with `TOO_LARGE` past `maxBytes` (before it is all in memory). */
  text(maxBytes: number): Promise<string>;
  discard(): void;
}

/** One request to the pool's origin. */
export interface McpHttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path and query on the origin. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Ends the exchange (before or during the answer); the exchange then rejects with its reason. */
  readonly signal?: AbortSignal;
}

/**
 * The keep-alive connections of a transport to one server, an undici `Pool`: an exchange costs about 40 µs of CPU
 * against 65 µs over node:http (itself half of fetch on Node 20). No header or body timeout: the client times each
 * call out itself, and a GET stream of notifications may stay quiet for hours. undici closes an idle socket 2 s before
 * the keep-alive timeout the server announces (4 s without one), so a request does not go out on a socket the server
 * is closing (what node:http needed a retry for). undici is loaded by the first exchange, not with the library:
 * loaded, its fetch half made every in-process tool call of a server that never calls out about 20 % dearer.
 */
export class McpHttpPool {
  private pool: Pool | undefined;
  private closed = false;

  constructor(readonly origin: string) {}

  /** One exchange. A network failure is `UNAVAILABLE`, an abort rejects with the signal's reason. */
  async exchange(request: McpHttpRequest): Promise<McpHttpAnswer> {
    const signal = request.signal;
    try {
      const pool = this.pool ?? (await this.open());
      const response = await pool.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        signal,
      });
      const status = response.statusCode;
      const headers = response.headers;
      const body = response.body;
      return {
        status,
        ok: status >= 200 && status < 300,
        header: (name) => {
          const value = headers[name.toLowerCase()];
          return Array.isArray(value) ? value.join(', ') : value;
        },
        body,
        // A length declared within the bound is all llhttp lets through: read whole, without a loop over chunks.
        text: (maxBytes) => {
          const declared = headers['content-length'] as string | undefined;
          if (Number(declared) <= maxBytes) return body.text();
          return readBoundedText(body, maxBytes, declared).catch((error: unknown) => {
            throw error instanceof BodyTooLargeError ? tooLarge(maxBytes) : error;
          });
        },
        // Reads a short body to its end so its socket serves the next exchange; a long one (over 128 KiB) closes it.
        discard: () => void body.dump().catch(() => undefined),
      };
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (this.closed) throw new McpClientError('CLOSED', 'The client was closed');
      const code = (error as { code?: string }).code;
      throw new McpClientError('UNAVAILABLE', `The server at ${this.origin} cannot be reached${code ? ` (${code})` : ''}`);
    }
  }

  /** Ends every exchange still open and closes the sockets. */
  async destroy(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }

  private async open(): Promise<Pool> {
    const { Pool } = await (undici ??= import('undici'));
    if (this.closed) throw new McpClientError('CLOSED', 'The client was closed');
    return (this.pool ??= new Pool(this.origin, { headersTimeout: 0, bodyTimeout: 0 }));
  }
}

let undici: Promise<typeof import('undici')> | undefined;

/** What an aborted exchange fails with: the signal's reason, else a cancellation. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new McpClientError('CANCELLED', 'Cancelled');
}
