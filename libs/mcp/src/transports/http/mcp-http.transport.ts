import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { clientText } from '../../core/client-text.js';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { DEFAULT_HTTP_PROTOCOL_VERSION, isAtLeast, isSupportedProtocolVersion } from '../../core/protocol-versions.js';
import type { McpSessionRecord } from '../../sessions/mcp-session.record.js';
import { McpSessionService } from '../../sessions/mcp-session.service.js';
import type { LiveStream } from '../streams/live-stream.js';
import { McpStreamHub } from '../streams/stream-hub.js';
import { SseEventStore } from '../streams/sse-event.store.js';
import { sendHttpError, sendJson } from './http-json-rpc.responses.js';
import { headerOf, idOf, methodOf, receiveJson } from './incoming-json.js';
import { principalOf } from './request-principal.js';
import type { SseWriter } from './sse-writer.js';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { DEFAULT_TENANT } from '../../execution/tool-context.factory.js';
import { McpModernHttpHandler } from '../../eras/rev-2026-07-28/http.handler.js';

const SESSION_HEADER = 'mcp-session-id';
const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

/** What the session check of a request decided. */
type SessionCheck = { ok: true; session?: McpSessionRecord } | { ok: false };

/**
 * Streamable HTTP (2025-03-26 and later): POST carries client messages, GET opens the session's stream or
 * resumes one, DELETE ends a session. Bytes in, JSON-RPC messages to the dispatcher; knows nothing of tools.
 */
@Injectable()
export class McpHttpTransport {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly sessions: McpSessionService,
    private readonly hub: McpStreamHub,
    private readonly events: SseEventStore,
    private readonly auth: McpAuthService,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly modern: McpModernHttpHandler,
  ) {}

  async handlePost(request: Request, response: Response): Promise<void> {
    const accept = headerOf(request, 'accept');
    if (accept && !/application\/json|text\/event-stream|\*\/\*|application\/\*/i.test(accept)) {
      return sendHttpError(response, 406, 'Not Acceptable: accept application/json and text/event-stream');
    }
    const body = await receiveJson(request, response, this.options.maxBodyBytes);
    if (body === receiveJson.NO_BODY) return;
    // 2026-07-28 (modern/era-routing.ts): messages claiming a modern revision are served there, before any
    // session logic; claim-less traffic continues below exactly as before.
    if (await this.modern.handlePost(request, response, body)) return;
    const isInitialize = methodOf(body) === 'initialize';
    const principal = principalOf(request);

    const check = await this.checkSession(request, response, principal, isInitialize, idOf(body));
    if (!check.ok) return;
    const session = check.session;
    const headerVersion = headerOf(request, PROTOCOL_VERSION_HEADER);
    // Negotiation happens in the initialize body; afterwards an unsupported header is a 400 (spec 2025-06-18).
    // A 2026-era request (the `server/discover` probe) must instead reach the dispatcher, whose -32601 at HTTP 200
    // sends dual-era clients back to `initialize`.
    if (!isInitialize && !isModernRequest(body) && headerVersion !== undefined && !isSupportedProtocolVersion(headerVersion)) {
      return sendHttpError(response, 400, `Bad Request: unsupported MCP-Protocol-Version "${clientText(headerVersion)}"`, { id: idOf(body) });
    }
    const protocolVersion = headerVersion && isSupportedProtocolVersion(headerVersion) ? headerVersion : (session?.protocolVersion ?? DEFAULT_HTTP_PROTOCOL_VERSION);
    const tenant = principal?.tenant ?? DEFAULT_TENANT;
    const reply = new PostReply(response, this.hub, tenant, session?.id, /text\/event-stream/i.test(accept ?? ''), isAtLeast(protocolVersion, '2025-11-25') ? this.options.streams.retryMs : undefined);
    const context = this.context(protocolVersion, principal, session, reply);

    if (Array.isArray(body)) return this.handleBatch(body, context, response);
    const answer = await this.dispatcher.dispatch(body, context);
    if (isInitialize && answer && 'result' in answer && this.options.sessions.mode !== 'stateless') {
      const created = await this.sessions.create({
        transport: 'streamable-http',
        protocolVersion: String(answer.result.protocolVersion),
        clientCapabilities: paramsOf(body).capabilities ?? {},
        clientInfo: paramsOf(body).clientInfo,
        principal,
      });
      if (!created) return sendHttpError(response, 429, 'Too Many Requests: this tenant has too many open sessions', { id: idOf(body), headers: { 'Retry-After': '60' } });
      response.setHeader('Mcp-Session-Id', created.id);
    }
    reply.finish(answer);
  }

  async handleGet(request: Request, response: Response): Promise<boolean> {
    if (this.options.sessions.mode === 'stateless') {
      sendHttpError(response, 405, 'Method Not Allowed: this server is stateless', { headers: { Allow: 'POST' } });
      return true;
    }
    const sessionId = headerOf(request, SESSION_HEADER);
    if (sessionId === undefined) return false; // the caller may serve legacy SSE here
    if (!/text\/event-stream/i.test(headerOf(request, 'accept') ?? '')) {
      sendHttpError(response, 406, 'Not Acceptable: a GET stream needs Accept: text/event-stream');
      return true;
    }
    const session = await this.sessions.find(sessionId, principalOf(request));
    if (!session) {
      sendHttpError(response, 404, 'Session not found', { code: JsonRpcErrorCode.SESSION_NOT_FOUND });
      return true;
    }
    const lastEventId = headerOf(request, 'last-event-id');
    if (lastEventId !== undefined) await this.resume(session, lastEventId, request, response);
    else this.openStandalone(session, request, response);
    return true;
  }

  async handleDelete(request: Request, response: Response): Promise<void> {
    if (this.options.sessions.mode === 'stateless') return sendHttpError(response, 405, 'Method Not Allowed: this server is stateless', { headers: { Allow: 'POST' } });
    const sessionId = headerOf(request, SESSION_HEADER);
    if (sessionId === undefined) return sendHttpError(response, 400, 'Bad Request: Mcp-Session-Id header required');
    const session = await this.sessions.find(sessionId, principalOf(request));
    if (!session) return sendHttpError(response, 404, 'Session not found', { code: JsonRpcErrorCode.SESSION_NOT_FOUND });
    await this.sessions.end(session.id);
    this.hub.standaloneOf(session.id)?.complete();
    this.hub.setStandalone(session.id, undefined);
    response.status(200).end();
  }

  private async checkSession(request: Request, response: Response, principal: McpPrincipal | undefined, isInitialize: boolean, id: string | number | null): Promise<SessionCheck> {
    const mode = this.options.sessions.mode;
    const sessionId = headerOf(request, SESSION_HEADER);
    if (mode === 'stateless') return { ok: true };
    if (sessionId === undefined) {
      if (mode === 'required' && !isInitialize) {
        sendHttpError(response, 400, 'Bad Request: Mcp-Session-Id header required', { id });
        return { ok: false };
      }
      return { ok: true };
    }
    if (isInitialize) {
      sendHttpError(response, 400, 'Invalid Request: this session is already initialized', { code: JsonRpcErrorCode.INVALID_REQUEST, id });
      return { ok: false };
    }
    const session = await this.sessions.find(sessionId, principal);
    if (!session) {
      // Unknown, ended, expired, or another principal's: all look the same (no existence leak).
      sendHttpError(response, 404, 'Session not found', { code: JsonRpcErrorCode.SESSION_NOT_FOUND, id });
      return { ok: false };
    }
    return { ok: true, session };
  }

  private context(protocolVersion: string, principal: McpPrincipal | undefined, session: McpSessionRecord | undefined, reply: PostReply): McpRequestContext {
    return {
      transport: 'http',
      protocolVersion,
      principal,
      sessionId: session?.id,
      clientCapabilities: session?.clientCapabilities,
      logLevel: session?.logLevel,
      setLogLevel: session ? (level) => this.sessions.update({ ...session, logLevel: level }) : undefined,
      cancellationScope: session?.id,
      send: reply.canStream ? (message) => reply.send(message) : undefined,
      onInsufficientScope: (scopes) => reply.refuse(403, { 'WWW-Authenticate': this.auth.insufficientScopeChallenge(scopes) }),
      closeStream: reply.canStream && session ? () => reply.closeConnection(this.options.streams.retryMs) : undefined,
    };
  }

  /** Batches exist only in 2025-03-26; other revisions answer an array with -32600. */
  private async handleBatch(messages: unknown[], context: McpRequestContext, response: Response): Promise<void> {
    if (
      context.protocolVersion !== '2025-03-26' ||
      messages.length === 0 ||
      messages.length > this.options.limits.maxJsonCollectionSize ||
      messages.some((message) => methodOf(message) === 'initialize')
    ) {
      return sendJson(response, 400, errorResponse(null, { code: JsonRpcErrorCode.INVALID_REQUEST, message: 'Invalid Request: JSON-RPC batches are not accepted here' }));
    }
    const batchContext: McpRequestContext = { ...context, send: undefined };
    const replies = (await Promise.all(messages.map((message) => this.dispatcher.dispatch(message, batchContext)))).filter(
      (reply): reply is JsonRpcResponse => reply !== undefined,
    );
    if (replies.length === 0) return void response.status(202).end();
    sendJson(response, 200, replies);
  }

  /**
   * GET with `Last-Event-ID`: replay what the client missed on that stream, then continue it if still live.
   * The replay waits for the socket to drain (a cut reader may have missed more than the byte budget), and reads
   * the store again for what arrived meanwhile before it hands the connection to the live stream.
   */
  private async resume(session: McpSessionRecord, lastEventId: string, request: Request, response: Response): Promise<void> {
    let missed = await this.events.after(session.id, lastEventId);
    if (!missed) return sendHttpError(response, 404, 'Unknown Last-Event-ID for this session');
    const tenant = principalOf(request)?.tenant ?? DEFAULT_TENANT;
    if (!this.hub.hasRoomFor(tenant)) return sendHttpError(response, 429, 'Too Many Requests: this tenant has too many open streams', { headers: { 'Retry-After': '5' } });
    const live = this.hub.find(missed.streamId);
    const writer = this.hub.connect(response, tenant, (closed) => live?.detach(closed), missed.streamId);
    writer.open();
    while (missed && missed.events.length > 0) {
      for (const event of missed.events) {
        if (!writer.event(JSON.stringify(event.message), { event: 'message', id: event.id })) await writer.drained();
        if (writer.closed) return;
      }
      missed = await this.events.after(session.id, missed.events[missed.events.length - 1].id);
    }
    if (live && !live.done) live.attach(writer);
    else writer.end();
  }

  /** The session's standalone stream for server notifications; one at a time (409 otherwise). */
  private openStandalone(session: McpSessionRecord, request: Request, response: Response): void {
    if (this.hub.standaloneOf(session.id)) return sendHttpError(response, 409, 'Conflict: this session already has an open GET stream');
    const tenant = principalOf(request)?.tenant ?? DEFAULT_TENANT;
    if (!this.hub.hasRoomFor(tenant)) return sendHttpError(response, 429, 'Too Many Requests: this tenant has too many open streams', { headers: { 'Retry-After': '5' } });
    const stream = this.hub.open(session.id);
    const writer: SseWriter = this.hub.connect(
      response,
      tenant,
      () => {
        stream.detach(writer);
        if (this.hub.standaloneOf(session.id) === stream) this.hub.setStandalone(session.id, undefined);
        this.hub.release(stream);
      },
      stream.id,
    );
    writer.open();
    stream.attach(writer);
    if (isAtLeast(session.protocolVersion, '2025-11-25')) stream.prime(this.options.streams.retryMs);
    this.hub.setStandalone(session.id, stream);
  }
}

/**
 * The answer to one POST: plain JSON unless the call sends a message first; then, if the client accepts SSE,
 * an event stream (resumable within a session) that carries those messages and ends with the response.
 */
class PostReply {
  private stream?: LiveStream;
  private refusal?: { status: number; headers: Record<string, string> };

  constructor(
    private readonly response: Response,
    private readonly hub: McpStreamHub,
    private readonly tenant: string,
    private readonly sessionId: string | undefined,
    readonly canStream: boolean,
    /** Set for clients at 2025-11-25 or later (older ones choke on an empty `data`): the priming `retry:` hint. */
    private readonly primeRetryMs: number | undefined,
  ) {}

  /** Answers with this HTTP status instead of 200 (the body stays the JSON-RPC answer). */
  refuse(status: number, headers: Record<string, string>): void {
    this.refusal = { status, headers };
  }

  send(message: JsonRpcMessage): void {
    this.ensureStream()?.send(message);
  }

  /** Ends the connection (after priming and a `retry:` hint) but not the stream: the client resumes with GET. */
  closeConnection(retryMs: number): void {
    // Closing asks the client to poll: it needs an event id to resume from, whatever its version.
    const stream = this.ensureStream(retryMs);
    if (!stream || !this.writer) return;
    this.writer.retry(retryMs);
    stream.detach(this.writer);
    this.writer.end();
  }

  private writer?: SseWriter;

  private ensureStream(primeRetryMs = this.primeRetryMs): LiveStream | undefined {
    if (this.stream) return this.stream;
    if (this.response.headersSent) return undefined;
    const stream = this.hub.open(this.sessionId);
    const writer = this.hub.connect(this.response, this.tenant, (closed) => stream.detach(closed), stream.id);
    writer.open();
    stream.attach(writer);
    if (primeRetryMs !== undefined) stream.prime(primeRetryMs);
    this.stream = stream;
    this.writer = writer;
    return stream;
  }

  finish(answer: JsonRpcResponse | undefined): void {
    if (this.stream) {
      if (answer) this.stream.send(answer);
      this.stream.complete();
      this.hub.release(this.stream);
      return;
    }
    if (answer) return sendJson(this.response, this.refusal?.status ?? 200, answer, this.refusal?.headers);
    // Notifications and client responses: 202 and no body; so is a request the client cancelled.
    this.response.status(202).end();
  }
}

/** A 2026-07-28 request: `server/discover`, or a version claim in `params._meta`. */
function isModernRequest(body: unknown): boolean {
  if (methodOf(body) === 'server/discover') return true;
  const meta = (paramsOf(body) as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && 'io.modelcontextprotocol/protocolVersion' in meta;
}

function paramsOf(body: unknown): { capabilities?: Record<string, unknown>; clientInfo?: Record<string, unknown> } {
  const params = typeof body === 'object' && body !== null ? (body as { params?: unknown }).params : undefined;
  return typeof params === 'object' && params !== null ? (params as { capabilities?: Record<string, unknown>; clientInfo?: Record<string, unknown> }) : {};
}
