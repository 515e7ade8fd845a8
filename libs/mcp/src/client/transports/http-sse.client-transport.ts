import type { McpOAuthAuthorizer } from '../auth/oauth-authorizer.js';
import type { McpClientHttpOptions } from '../mcp-client-options.interface.js';
import { McpClientError } from '../mcp-client.error.js';
import { readBoundedText, readEventStream } from './bounded-body.js';
import type { McpClientTransport, McpClientTransportSink } from './client-transport.interface.js';
import { fetchOrUnavailable, resolveHeaders, statusError } from './http-headers.js';

/**
 * The HTTP+SSE transport of 2024-11-05: a GET opens an SSE stream whose first `endpoint` event names the URL to
 * POST messages to; every answer and notification arrives on that stream. The stream ending is a lost connection.
 */
export class HttpSseClientTransport implements McpClientTransport {
  readonly kind = 'http-sse' as const;
  private endpoint?: string;
  private readonly closing = new AbortController();

  constructor(
    private readonly options: McpClientHttpOptions,
    private readonly maxBytes: number,
    private readonly connectTimeoutMs: number,
    /** OAuth (the `auth` option): the token of the stream and of each message, and the answer to their challenges. */
    private readonly auth?: McpOAuthAuthorizer,
  ) {}

  async open(sink: McpClientTransportSink): Promise<void> {
    const response = await this.authorized(async () =>
      fetchOrUnavailable(this.options.url, {
        method: 'GET',
        headers: { ...(await this.headers()), accept: 'text/event-stream' },
        signal: this.closing.signal,
      }),
    );
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await response.body?.cancel();
      throw statusError(response.ok ? 406 : response.status, 'The SSE endpoint');
    }
    let found: (url: string) => void = () => undefined;
    const endpoint = new Promise<string>((resolve) => (found = resolve));
    const reading = readEventStream(response.body, this.maxBytes, (event) => {
      if (event.event === 'endpoint') return found(new URL(event.data, this.options.url).href);
      if (event.event !== undefined && event.event !== 'message') return;
      try {
        sink.message(JSON.parse(event.data) as unknown);
      } catch {
        // Not JSON: not a message.
      }
    });
    void reading.then(
      () => sink.closed(new McpClientError('UNAVAILABLE', 'The SSE stream ended')),
      (error: unknown) => sink.closed(error instanceof McpClientError ? error : new McpClientError('UNAVAILABLE', 'The SSE stream broke')),
    );
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new McpClientError('TIMEOUT', 'The SSE stream sent no endpoint')), this.connectTimeoutMs).unref(),
    );
    this.endpoint = await Promise.race([
      endpoint,
      timeout,
      reading.then(() => Promise.reject(new McpClientError('UNAVAILABLE', 'The SSE stream ended'))),
    ]);
    if (new URL(this.endpoint).origin !== new URL(this.options.url).origin) {
      throw new McpClientError('PROTOCOL', 'The SSE endpoint named another origin');
    }
  }

  async send(message: Record<string, unknown>, signal?: AbortSignal, callHeaders?: Readonly<Record<string, string>>): Promise<void> {
    if (!this.endpoint) throw new McpClientError('UNAVAILABLE', 'Not connected');
    const endpoint = this.endpoint;
    const response = await this.authorized(async () =>
      fetchOrUnavailable(endpoint, {
        method: 'POST',
        headers: { ...(await this.headers(callHeaders)), 'content-type': 'application/json' },
        body: JSON.stringify(message),
        // The client aborts a request's signal when it fails or the client closes (AbortSignal.any per request is costly).
        signal: signal ?? this.closing.signal,
      }),
    );
    await readBoundedText(response.body, this.maxBytes).catch(() => '');
    if (!response.ok) throw statusError(response.status, 'The message endpoint');
  }

  private async headers(callHeaders?: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    const headers = await resolveHeaders(this.options.headers, callHeaders);
    const authorization = await this.auth?.authorization();
    return authorization === undefined ? headers : { ...headers, authorization };
  }

  /** One exchange, answering the server's OAuth challenges with the `auth` option. */
  private authorized(exchange: () => Promise<Response>): Promise<Response> {
    return this.auth
      ? this.auth.exchange(
          exchange,
          (answer) => answer.headers.get('www-authenticate') ?? undefined,
          (answer) => answer.body?.cancel(),
        )
      : exchange();
  }

  initialized(): void {
    // 2024-11-05 has no revision header.
  }

  close(): Promise<void> {
    this.closing.abort(new McpClientError('CLOSED', 'The client was closed'));
    return Promise.resolve();
  }
}
