import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { errorResponse, idOf } from '../../core/json-rpc/json-rpc.codec.js';
import type { McpSessionRecord } from '../../sessions/mcp-session.record.js';
import { McpSessionService } from '../../sessions/mcp-session.service.js';
import { McpStreamHub } from '../streams/stream-hub.js';
import { SseEventStore } from '../streams/sse-event.store.js';
import {
  sendHttpError,
  sendJson,
  sendRefusal,
  sendSessionNotFound,
  sendStatus,
  sendTooManySessions,
  sendTooManyStreams,
} from './http-json-rpc.responses.js';
import { headerOf, receiveJson } from './incoming-json.js';
import { principalOf } from './request-principal.js';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { McpEraRouter } from '../../eras/mcp-era.router.js';
import { HttpPostChannel, type HttpPostServices } from './http-post.channel.js';
import { McpStoreUnavailableError } from '../../core/errors/store-unavailable.error.js';
import { McpQuotaExceededError } from '../../core/errors/quota-exceeded.error.js';
import { refusalOf, sendRefusalOf } from './auth/mcp-http-refusal.filter.js';
import { tenantOf } from '../../core/tenant.js';

const SESSION_HEADER = 'mcp-session-id';
/** An `Accept` that takes one of our answers (JSON or an event stream). */
const ACCEPTABLE = /application\/json|text\/event-stream|\*\/\*|application\/\*/i;
const EVENT_STREAM = /text\/event-stream/i;

/** Streamable HTTP: POST goes to the era router with its channel, GET opens or resumes a stream, DELETE ends a session. */
@Injectable()
export class McpHttpTransport {
  private readonly services: HttpPostServices;

  constructor(
    private readonly sessions: McpSessionService,
    private readonly hub: McpStreamHub,
    private readonly events: SseEventStore,
    private readonly auth: McpAuthService,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly router: McpEraRouter,
  ) {
    this.services = { hub, auth, retryMs: options.http.streams.retryMs, trustProxy: options.http.trustProxy };
    // A DELETE on another instance ends the session there; the GET stream this one holds for it ends too.
    sessions.onEndElsewhere((sessionId) => this.endStandalone(sessionId));
  }

  async handlePost(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const accept = headerOf(request, 'accept');
    if (accept && !ACCEPTABLE.test(accept))
      return sendHttpError(response, 406, 'Not Acceptable: accept application/json and text/event-stream');
    const received = receiveJson(request, response, this.options.http.maxBodyBytes, this.options.limits.bodyTimeoutMs);
    // A body the adapter already parsed comes back at once: no await (a tick) for it. A JSON value is no Promise.
    const body = received instanceof Promise ? await received : received;
    if (body === receiveJson.NO_BODY) return;
    // Shutting down: a new request goes elsewhere; answers and notifications still reach calls finishing here.
    if (this.hub.isDraining && carriesRequest(body))
      return sendRefusal(response, 'UNAVAILABLE', 'this instance is shutting down', { id: idOf(body) });
    const canStream = accept !== undefined && EVENT_STREAM.test(accept);
    const channel = new HttpPostChannel(request, response, principalOf(request), canStream, this.services);
    const serving = this.router.serve(body, channel);
    let answer: Awaited<typeof serving>;
    try {
      answer = serving instanceof Promise ? await serving : serving;
    } catch (error) {
      // A store outage or a quota ends the whole request (503 / 429); its id is known here, so the error carries it.
      if (!(error instanceof McpStoreUnavailableError || error instanceof McpQuotaExceededError) || response.headersSent) throw error;
      return sendRefusalOf(response, refusalOf(error), idOf(body));
    }
    switch (answer.kind) {
      case 'refused':
        if (answer.reason === 'too-many-sessions') return sendTooManySessions(response, answer.id);
        return sendJson(response, answer.reason === 'session-not-found' ? 404 : 400, errorResponse(answer.id, answer.error));
      case 'accepted':
        return; // a listen stream is open, or it was refused already
    }
    // A batch answers in one JSON array (202 when it holds only notifications and responses).
    if (Array.isArray(answer.reply)) return sendJson(response, 200, answer.reply);
    if (answer.createdSessionId) response.setHeader('Mcp-Session-Id', answer.createdSessionId);
    if (channel.reply) return channel.reply.finish(answer.reply, answer.status);
    if (answer.reply) return sendJson(response, answer.status ?? 200, answer.reply);
    sendStatus(response, 202);
  }

  /** A GET without a session goes to `withoutSession` (the caller may serve the legacy HTTP+SSE there). */
  async handleGet(request: IncomingMessage, response: ServerResponse, withoutSession: () => Promise<void> | void): Promise<void> {
    if (this.options.sessions.mode === 'stateless')
      return sendHttpError(response, 405, 'Method Not Allowed: this server is stateless', { headers: { Allow: 'POST' } });
    const sessionId = headerOf(request, SESSION_HEADER);
    if (sessionId === undefined) return withoutSession();
    if (!EVENT_STREAM.test(headerOf(request, 'accept') ?? ''))
      return sendHttpError(response, 406, 'Not Acceptable: a GET stream needs Accept: text/event-stream');
    const session = await this.sessions.find(sessionId, principalOf(request));
    if (!session) return sendSessionNotFound(response);
    const lastEventId = headerOf(request, 'last-event-id');
    if (lastEventId !== undefined) await this.resume(session, lastEventId, request, response);
    else await this.openStandalone(session, request, response);
  }

  async handleDelete(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.options.sessions.mode === 'stateless')
      return sendHttpError(response, 405, 'Method Not Allowed: this server is stateless', { headers: { Allow: 'POST' } });
    const sessionId = headerOf(request, SESSION_HEADER);
    if (sessionId === undefined) return sendHttpError(response, 400, 'Bad Request: Mcp-Session-Id header required');
    const session = await this.sessions.find(sessionId, principalOf(request));
    if (!session) return sendSessionNotFound(response);
    await this.sessions.end(session.id);
    this.endStandalone(session.id);
    sendStatus(response, 200);
  }

  private endStandalone(sessionId: string): void {
    this.hub.standaloneOf(sessionId)?.complete();
    this.hub.setStandalone(sessionId, undefined);
  }

  /**
   * GET with `Last-Event-ID`: replays what the client missed (waiting for the socket to drain: the byte budget would
   * cut it), reads again what arrived meanwhile, then hands the connection to the stream if it is still live.
   */
  private async resume(session: McpSessionRecord, lastEventId: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    let missed = await this.events.after(session.id, lastEventId);
    if (!missed) return sendHttpError(response, 404, 'Unknown Last-Event-ID for this session');
    const tenant = tenantOf(principalOf(request));
    if (!(await this.hub.hasRoomFor(tenant))) return sendTooManyStreams(response);
    const live = this.hub.find(missed.streamId);
    // Not held here: ended, live on another instance (followed there), or lost with an instance that died.
    const remote = live ? undefined : await this.hub.remoteStateOf(missed.streamId, missed.ended);
    if (remote === 'lost') return sendSessionNotFound(response, 'Session not found: the instance holding this stream stopped');
    const writer = this.hub.connect(response, tenant, (closed) => live?.detach(closed), missed.streamId);
    writer.open();
    let lastId = lastEventId;
    for (;;) {
      while (missed && missed.events.length > 0) {
        for (const event of missed.events) {
          if (!writer.event(JSON.stringify(event.message), { event: 'message', id: event.id })) await writer.drained();
          if (writer.closed) return;
          lastId = event.id;
        }
        missed = await this.events.after(session.id, lastId);
      }
      // What the live stream sent during the last read reached no connection: replayed once stored; the hand-over
      // happens in the tick that finds nothing missing. A re-read that finds nothing new (not stored) goes on.
      if (!missed || !live || live.lastEventId === lastId) break;
      await live.flushed();
      missed = await this.events.after(session.id, lastId);
      if (missed?.events.length === 0) break;
    }
    // The position was lost mid-replay (bounds, or an event too large to keep): ended, so the next resume gets 404
    // rather than a stream with a silent gap.
    if (!missed) return writer.end();
    if (live && !live.done) live.attach(writer);
    else if (remote === 'live' && missed && !missed.ended) this.hub.followRemote(session.id, missed.streamId, lastId, writer);
    else writer.end();
  }

  /** The session's standalone stream for server notifications; one at a time, across instances (409 otherwise). */
  private async openStandalone(session: McpSessionRecord, request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!(await this.hub.claimStandalone(session.id)))
      return sendHttpError(response, 409, 'Conflict: this session already has an open GET stream');
    const letGo = () => this.hub.setStandalone(session.id, undefined); // the claim, when no stream follows
    const tenant = tenantOf(principalOf(request));
    const room = await this.hub.hasRoomFor(tenant).catch((error: unknown) => {
      letGo();
      throw error;
    });
    if (!room) {
      letGo();
      return sendTooManyStreams(response);
    }
    if (response.destroyed) return letGo(); // gone while we waited
    const stream = this.hub.open(session.id);
    const onClose = () => {
      stream.detach(writer);
      if (this.hub.standaloneOf(session.id) === stream) this.hub.setStandalone(session.id, undefined);
      this.hub.release(stream);
    };
    const writer = this.hub.connect(response, tenant, onClose, stream.id);
    writer.open();
    stream.attach(writer);
    if (this.router.primes(session)) stream.prime(this.options.http.streams.retryMs);
    this.hub.setStandalone(session.id, stream);
  }
}

/** Whether a POST body holds a JSON-RPC request (a method and an id), alone or in a batch. */
function carriesRequest(body: unknown): boolean {
  const isRequest = (message: unknown) => typeof message === 'object' && message !== null && 'method' in message && 'id' in message;
  return Array.isArray(body) ? body.some(isRequest) : isRequest(body);
}
