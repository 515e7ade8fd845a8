import type { McpOAuthAuthorizer } from '../auth/oauth-authorizer.js';
import type { McpClientHttpOptions } from '../mcp-client-options.interface.js';
import { McpClientError, orUnavailable } from '../mcp-client.error.js';
import { readEventStream } from './bounded-body.js';
import type { McpClientTransport, McpClientTransportSink } from './client-transport.interface.js';
import { resolveHeaders, statusError } from './http-headers.js';
import { McpHttpPool, type McpHttpAnswer } from './http-pool.js';

/**
 * The HTTP+SSE transport of 2024-11-05: a GET opens an SSE stream whose first `endpoint` event names the URL to
 * POST messages to; every answer and notification arrives on that stream. The stream ending is a lost connection.
 */
export class HttpSseClientTransport implements McpClientTransport {
  readonly kind = 'http-sse' as const;
  /** The path (and query) of the message endpoint on the stream's origin. */
  private endpoint?: string;
  private readonly closing = new AbortController();
  private readonly url: URL;
  /** The stream and the messages go to one origin (an endpoint elsewhere is refused). */
  private readonly pool: McpHttpPool;

  constructor(
    private readonly options: McpClientHttpOptions,
    private readonly maxBytes: number,
    private readonly connectTimeoutMs: number,
    /** OAuth (the `auth` option): the token of the stream and of each message, and the answer to their challenges. */
    private readonly auth?: McpOAuthAuthorizer,
  ) {
    this.url = new URL(options.url);
    this.pool = new McpHttpPool(this.url.origin);
  }

  async open(sink: McpClientTransportSink): Promise<void> {
    const response = await this.authorized(async () => {
      const headers = await resolveHeaders(this.options.headers, undefined, this.auth);
      headers.accept = 'text/event-stream';
      return this.pool.exchange({ method: 'GET', path: this.url.pathname + this.url.search, headers, signal: this.closing.signal });
    });
    if (!response.ok || !(response.header('content-type') ?? '').includes('text/event-stream')) {
      response.discard();
      throw statusError(response.ok ? 406 : response.status, 'The SSE endpoint');
    }
    let found: (url: URL) => void = () => undefined;
    const endpoint = new Promise<URL>((resolve) => (found = resolve));
    const reading = readEventStream(response.body, this.maxBytes, (event) => {
      if (event.event === 'endpoint') return found(new URL(event.data, this.url));
      if (event.event !== undefined && event.event !== 'message') return;
      try {
        sink.message(JSON.parse(event.data) as unknown);
      } catch {
        // Not JSON: not a message.
      }
    });
    void reading.then(
      () => sink.closed(new McpClientError('UNAVAILABLE', 'The SSE stream ended')),
      (error: unknown) => sink.closed(orUnavailable(error, 'The SSE stream broke')),
    );
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new McpClientError('TIMEOUT', 'The SSE stream sent no endpoint')), this.connectTimeoutMs).unref(),
    );
    const named = await Promise.race([
      endpoint,
      timeout,
      reading.then(() => Promise.reject(new McpClientError('UNAVAILABLE', 'The SSE stream ended'))),
    ]);
    if (named.origin !== this.url.origin) throw new McpClientError('PROTOCOL', 'The SSE endpoint named another origin');
    this.endpoint = named.pathname + named.search;
  }

  async send(message: Record<string, unknown>, signal?: AbortSignal, callHeaders?: Readonly<Record<string, string>>): Promise<void> {
    if (!this.endpoint) throw new McpClientError('UNAVAILABLE', 'Not connected');
    const endpoint = this.endpoint;
    const response = await this.authorized(async () => {
      const headers = await resolveHeaders(this.options.headers, callHeaders, this.auth);
      headers['content-type'] = 'application/json';
      return this.pool.exchange({
        method: 'POST',
        path: endpoint,
        headers,
        body: JSON.stringify(message),
        // The client aborts a request's signal when it fails or the client closes (AbortSignal.any per request is costly).
        signal: signal ?? this.closing.signal,
      });
    });
    await response.text(this.maxBytes).catch(() => '');
    if (!response.ok) throw statusError(response.status, 'The message endpoint');
  }

  /** One exchange, answering the server's OAuth challenges with the `auth` option. */
  private authorized(send: () => Promise<McpHttpAnswer>): Promise<McpHttpAnswer> {
    return this.auth?.exchange(send) ?? send();
  }

  close(): Promise<void> {
    this.closing.abort(new McpClientError('CLOSED', 'The client was closed'));
    return this.pool.destroy();
  }
}
