import type { McpClientHttpOptions } from '../mcp-client-options.interface.js';
import { McpClientError, orUnavailable } from '../mcp-client.error.js';
import { parseServerJson, readEventStream } from './bounded-body.js';
import type { McpClientTransport, McpClientTransportSink } from './client-transport.interface.js';
import { resolveHeaders, statusError } from './http-headers.js';
import { McpHttpPool, type McpHttpAnswer } from './http-pool.js';
import type { McpProbeAnswer } from '../eras/era-probe.js';
import { META } from '../../core/rev-2026-07-28.constants.js';
import { modernHeaders, type ModernParamHeaders } from '../eras/rev-2026-07-28.wire.js';
import type { McpOAuthAuthorizer } from '../auth/oauth-authorizer.js';

/** Longest wait before the GET stream is opened again after it ended. */
const MAX_LISTEN_DELAY_MS = 30_000;
/** Wait before resuming a broken response stream when the server named no `retry` (1 s). */
const DEFAULT_RESUME_DELAY_MS = 1_000;
/** How long connecting waits for the GET stream of server notifications to be answered. */
const LISTEN_OPEN_WAIT_MS = 2_000;
/** Resumptions of one response stream at most. */
const MAX_RESUMPTIONS = 3;

/**
 * Streamable HTTP (2025-03-26 and later): each message is a POST answered with JSON, an SSE stream or 202; the
 * session id of `initialize` and the negotiated revision go on every later request; a GET stream carries the
 * server's own notifications (`list_changed`) when the server offers one. A 404 on a session means the server
 * forgot it (`SESSION_EXPIRED`); a 404 or 405 on the first POST means the URL is no Streamable HTTP endpoint.
 * In the 2026-07-28 era there is no session and no GET stream: each POST carries `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name`, and closing its response is what cancels it.
 */
export class StreamableHttpClientTransport implements McpClientTransport {
  readonly kind = 'streamable-http' as const;
  private sink?: McpClientTransportSink;
  private sessionId?: string;
  private protocolVersion?: string;
  /** Set once the 2026-07-28 era was chosen: every POST carries its headers. */
  private modernVersion?: string;
  private paramHeaders?: ModernParamHeaders;
  private readonly closing = new AbortController();
  private listening = false;
  /** Keeps connections to the server open between calls (destroyed with the transport). */
  private readonly pool: McpHttpPool;
  /** The endpoint's path and query on the pool's origin. */
  private readonly path: string;

  constructor(
    private readonly options: McpClientHttpOptions,
    private readonly maxBytes: number,
    /** OAuth (the `auth` option): the token of each request, and the answer to a 401 or 403 `insufficient_scope`. */
    private readonly auth?: McpOAuthAuthorizer,
  ) {
    const url = new URL(options.url);
    this.pool = new McpHttpPool(url.origin);
    this.path = url.pathname + url.search;
  }

  open(sink: McpClientTransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  async send(message: Record<string, unknown>, signal?: AbortSignal, callHeaders?: Readonly<Record<string, string>>): Promise<void> {
    const hadSession = this.sessionId !== undefined;
    const response = await this.authorized(async () =>
      this.pool.exchange({
        method: 'POST',
        path: this.path,
        headers: await this.postHeaders(message, callHeaders),
        body: JSON.stringify(message),
        // The client aborts a request's signal when it fails or the client closes.
        signal: signal ?? this.closing.signal,
      }),
    );
    const isInitialize = message.method === 'initialize';
    if (response.status === 404 && hadSession) {
      response.discard();
      this.sessionId = undefined;
      throw new McpClientError('SESSION_EXPIRED', 'The server no longer knows the session', { status: 404 });
    }
    if (!response.ok) {
      const text = await response.text(this.maxBytes).catch(() => '');
      // A JSON-RPC error body (a 400 for a bad request) answers the request; anything else is the transport's.
      const body = safeJson(text);
      if (body && typeof body === 'object' && 'jsonrpc' in body && 'id' in body && (body as { id: unknown }).id !== null) {
        return this.sink!.message(body);
      }
      throw statusError(response.status, isInitialize ? 'The MCP endpoint' : 'The server');
    }
    if (isInitialize) this.sessionId = response.header('mcp-session-id') ?? undefined;
    const type = response.header('content-type') ?? '';
    if (response.status === 202 || !('id' in message) || message.method === undefined) {
      response.discard();
      return;
    }
    if (type.includes('text/event-stream')) {
      // The answer arrives on the stream, after any progress; send() returns now and the stream is read on.
      const id = message.id as string | number;
      void this.readStream(response, id, callHeaders);
      return;
    }
    this.sink!.message(parseServerJson(await response.text(this.maxBytes)));
  }

  async probe(message: Record<string, unknown>, signal: AbortSignal): Promise<McpProbeAnswer> {
    const version = String((message.params as { _meta: Record<string, unknown> })._meta[META.protocolVersion]);
    const failure = (error: unknown, what: string): McpProbeAnswer => ({
      failure: signal.aborted ? new McpClientError('TIMEOUT', 'server/discover got no answer in time') : orUnavailable(error, what),
    });
    let response: McpHttpAnswer;
    try {
      response = await this.authorized(async () =>
        this.pool.exchange({
          method: 'POST',
          path: this.path,
          headers: {
            ...(await this.headers(undefined)),
            ...modernHeaders(version, message),
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify(message),
          signal,
        }),
      );
    } catch (error) {
      return failure(error, 'server/discover could not be sent');
    }
    try {
      if ((response.header('content-type') ?? '').includes('text/event-stream')) {
        // An SSE answer: the first event that answers the probe.
        let answer: unknown;
        await readEventStream(response.body, this.maxBytes, (event) => {
          const value = answer === undefined && event.data !== '' ? safeJson(event.data) : undefined;
          if (value !== undefined && isResponseTo(value, message.id as string)) answer = value;
        });
        return answer === undefined ? { status: response.status, json: false } : { status: response.status, json: true, body: answer };
      }
      const body = safeJson(await response.text(this.maxBytes));
      return body === undefined ? { status: response.status, json: false } : { status: response.status, json: true, body };
    } catch (error) {
      return failure(error, 'The answer to server/discover broke');
    }
  }

  modern(protocolVersion: string, paramHeaders: ModernParamHeaders): void {
    this.modernVersion = protocolVersion;
    this.paramHeaders = paramHeaders;
  }

  /**
   * Opens the GET stream of server notifications; resolves once the server answered it (or 2 s passed), so the
   * stream is there before the first call: a server may otherwise take the later GET for a call's resumption.
   */
  initialized(protocolVersion: string): Promise<void> {
    this.protocolVersion = protocolVersion;
    if (this.listening) return Promise.resolve();
    let answered!: () => void;
    const opened = new Promise<void>((resolve) => (answered = resolve));
    void this.listen(answered);
    return Promise.race([opened, new Promise<void>((resolve) => setTimeout(resolve, LISTEN_OPEN_WAIT_MS).unref())]);
  }

  async close(): Promise<void> {
    this.closing.abort(new McpClientError('CLOSED', 'The client was closed'));
    const sessionId = this.sessionId;
    this.sessionId = undefined;
    if (sessionId !== undefined) {
      // Ends the session on the server (it may answer 405: sessions it cannot end expire there).
      await this.headers(sessionId)
        .then((headers) => this.pool.exchange({ method: 'DELETE', path: this.path, headers, signal: AbortSignal.timeout(2_000) }))
        .then((answer) => answer.discard())
        .catch(() => undefined);
    }
    await this.pool.destroy();
  }

  /**
   * A fresh object each time, filled by assignments (built for every call: not a spread literal, "Hot paths" in
   * docs/architecture.md).
   */
  private async headers(sessionId = this.sessionId, callHeaders?: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    const headers = await resolveHeaders(this.options.headers, callHeaders, this.auth);
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  private async postHeaders(
    message: Record<string, unknown>,
    callHeaders?: Readonly<Record<string, string>>,
  ): Promise<Record<string, string>> {
    const headers = await this.headers(this.sessionId, callHeaders);
    if (this.modernVersion !== undefined) Object.assign(headers, modernHeaders(this.modernVersion, message, this.paramHeaders));
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json, text/event-stream';
    return headers;
  }

  /** One exchange, answering the server's OAuth challenges with the `auth` option. */
  private authorized(send: () => Promise<McpHttpAnswer>): Promise<McpHttpAnswer> {
    return this.auth?.exchange(send) ?? send();
  }

  /**
   * Reads a POST's SSE answer. A stream that ends before the answer after an event id is resumed (2025-11-25,
   * SEP-1699): a GET with `Last-Event-ID` once the server's `retry` has passed, a few times at most; otherwise the
   * request is lost.
   */
  private async readStream(response: McpHttpAnswer, id: string | number, callHeaders?: Readonly<Record<string, string>>): Promise<void> {
    let answered = false;
    let lastEventId: string | undefined;
    let retryMs = DEFAULT_RESUME_DELAY_MS;
    const read = (body: McpHttpAnswer['body']) =>
      readEventStream(
        body,
        this.maxBytes,
        (event) => {
          if (event.id !== undefined) lastEventId = event.id;
          if (event.data === '') return; // a priming event
          const value = safeJson(event.data);
          if (value === undefined) return;
          if (isResponseTo(value, id)) answered = true;
          this.sink!.message(value, id);
        },
        (retry) => (retryMs = Math.min(retry, MAX_LISTEN_DELAY_MS)),
      );
    try {
      await read(response.body);
      for (
        let resumed = 0;
        !answered && lastEventId !== undefined && this.sessionId !== undefined && resumed < MAX_RESUMPTIONS;
        resumed++
      ) {
        // Not unref'd: a caller awaits this answer.
        await new Promise((resolve) => setTimeout(resolve, retryMs));
        if (this.closing.signal.aborted) break;
        const resumedFrom = lastEventId;
        const headers = await this.headers(this.sessionId, callHeaders);
        headers.accept = 'text/event-stream';
        headers['last-event-id'] = resumedFrom;
        const answer = await this.pool.exchange({ method: 'GET', path: this.path, headers, signal: this.closing.signal });
        if (!answer.ok) {
          answer.discard();
          break;
        }
        await read(answer.body);
      }
      if (!answered) this.sink!.lost(id, new McpClientError('UNAVAILABLE', 'The response stream ended before the answer'));
    } catch (error) {
      if (!answered) this.sink!.lost(id, orUnavailable(error, 'The response stream broke'));
    }
  }

  /** The GET stream of server notifications, opened again with backoff while there is a session; 405: none offered. */
  private async listen(answered: () => void): Promise<void> {
    this.listening = true;
    let delay = 500;
    try {
      while (!this.closing.signal.aborted && this.sessionId !== undefined) {
        try {
          const headers = await this.headers();
          headers.accept = 'text/event-stream';
          const response = await this.pool.exchange({ method: 'GET', path: this.path, headers, signal: this.closing.signal });
          answered();
          if (response.status === 405) return response.discard();
          if (!response.ok) {
            response.discard();
            throw statusError(response.status, 'The GET stream');
          }
          delay = 500;
          await readEventStream(response.body, this.maxBytes, (event) => {
            const value = event.data === '' ? undefined : safeJson(event.data);
            if (value !== undefined) this.sink!.message(value);
          });
        } catch {
          // Dropped or refused: tried again below while the session lives.
        }
        if (this.closing.signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        delay = Math.min(delay * 2, MAX_LISTEN_DELAY_MS);
      }
    } finally {
      answered();
      this.listening = false;
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isResponseTo(value: unknown, id: string | number): boolean {
  const answers = (one: unknown) => typeof one === 'object' && one !== null && (one as { id?: unknown }).id === id && !('method' in one);
  return Array.isArray(value) ? value.some(answers) : answers(value);
}
