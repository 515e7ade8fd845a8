import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { clientText } from '../../core/client-text.js';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcResponse } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { DEFAULT_HTTP_PROTOCOL_VERSION, isSupportedProtocolVersion, revisionHas } from '../../core/protocol-revisions.js';
import type { McpSessionRecord } from '../../sessions/mcp-session.record.js';
import { McpSessionService } from '../../sessions/mcp-session.service.js';
import { McpStreamHub } from '../streams/stream-hub.js';
import { SseEventStore } from '../streams/sse-event.store.js';
import { sendHttpError, sendJson, sendRefusal, STREAM_RETRY_AFTER_MS, SESSION_RETRY_AFTER_MS } from './http-json-rpc.responses.js';
import { headerOf, idOf, methodOf, receiveJson } from './incoming-json.js';
import { principalOf } from './request-principal.js';
import type { SseWriter } from './sse-writer.js';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { DEFAULT_TENANT } from '../../execution/tool-context.factory.js';
import { routeMessage } from '../../eras/era-router.js';
import { McpRev20251125SessionTracker } from '../../eras/rev-2026-07-28/subscriptions/rev-2025-11-25-sessions.tracker.js';
import { classifyHttpPost } from './http-era.classifier.js';
import { McpHttpRev20260728Handler } from './http-rev-2026-07-28.handler.js';
import { PostReply } from './post-reply.js';
import { traceHeadersFrom } from '../../core/trace-headers.js';

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
    private readonly rev20260728: McpHttpRev20260728Handler,
    private readonly sessionTracker: McpRev20251125SessionTracker,
  ) {}

  async handlePost(request: Request, response: Response): Promise<void> {
    const accept = headerOf(request, 'accept');
    if (accept && !/application\/json|text\/event-stream|\*\/\*|application\/\*/i.test(accept)) {
      return sendHttpError(response, 406, 'Not Acceptable: accept application/json and text/event-stream');
    }
    const body = await receiveJson(request, response, this.options.maxBodyBytes);
    if (body === receiveJson.NO_BODY) return;
    const route = routeMessage(classifyHttpPost(request, body));
    switch (route.era) {
      case 'refused':
        return sendJson(response, route.refusal.status, errorResponse(route.id, route.refusal.toJsonRpcError()));
      case '2026-07-28':
        return this.rev20260728.handle(request, response, route);
    }
    // 2025-11-25 from here: sessions, negotiation in `initialize`.
    this.sessionTracker.seen(headerOf(request, SESSION_HEADER));
    const isInitialize = methodOf(body) === 'initialize';
    const principal = principalOf(request);

    const check = await this.checkSession(request, response, principal, isInitialize, idOf(body));
    if (!check.ok) return;
    const session = check.session;
    const headerVersion = headerOf(request, PROTOCOL_VERSION_HEADER);
    // Negotiation happens in the initialize body; afterwards an unsupported header is a 400 (spec 2025-06-18).
    // The `server/discover` probe must instead reach the dispatcher, whose -32601 at HTTP 200 sends dual-era
    // clients back to `initialize`.
    if (!isInitialize && !route.probe && headerVersion !== undefined && !isSupportedProtocolVersion(headerVersion)) {
      return sendHttpError(response, 400, `Bad Request: unsupported MCP-Protocol-Version "${clientText(headerVersion)}"`, {
        id: idOf(body),
      });
    }
    const protocolVersion =
      headerVersion && isSupportedProtocolVersion(headerVersion)
        ? headerVersion
        : (session?.protocolVersion ?? DEFAULT_HTTP_PROTOCOL_VERSION);
    const tenant = principal?.tenant ?? DEFAULT_TENANT;
    const reply = new PostReply(
      response,
      this.hub,
      tenant,
      session?.id,
      /text\/event-stream/i.test(accept ?? ''),
      revisionHas(protocolVersion, 'priming') ? this.options.streams.retryMs : undefined,
    );
    const context = {
      ...this.context(protocolVersion, principal, session, reply),
      traceHeaders: traceHeadersFrom((name) => headerOf(request, name)),
    };

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
      if (!created)
        return sendRefusal(response, 'RATE_LIMITED', 'this tenant has too many open sessions', {
          id: idOf(body),
          retryAfterMs: SESSION_RETRY_AFTER_MS,
        });
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
    if (sessionId === undefined) return false; // the caller may serve HTTP+SSE (2024-11-05) here
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
    if (this.options.sessions.mode === 'stateless')
      return sendHttpError(response, 405, 'Method Not Allowed: this server is stateless', { headers: { Allow: 'POST' } });
    const sessionId = headerOf(request, SESSION_HEADER);
    if (sessionId === undefined) return sendHttpError(response, 400, 'Bad Request: Mcp-Session-Id header required');
    const session = await this.sessions.find(sessionId, principalOf(request));
    if (!session) return sendHttpError(response, 404, 'Session not found', { code: JsonRpcErrorCode.SESSION_NOT_FOUND });
    await this.sessions.end(session.id);
    this.hub.standaloneOf(session.id)?.complete();
    this.hub.setStandalone(session.id, undefined);
    response.status(200).end();
  }

  private async checkSession(
    request: Request,
    response: Response,
    principal: McpPrincipal | undefined,
    isInitialize: boolean,
    id: string | number | null,
  ): Promise<SessionCheck> {
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

  private context(
    protocolVersion: string,
    principal: McpPrincipal | undefined,
    session: McpSessionRecord | undefined,
    reply: PostReply,
  ): McpRequestContext {
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

  /** Batches exist only where the revisions table allows them (2025-03-26); other revisions answer an array with -32600. */
  private async handleBatch(messages: unknown[], context: McpRequestContext, response: Response): Promise<void> {
    if (
      !revisionHas(context.protocolVersion, 'batches') ||
      messages.length === 0 ||
      messages.length > this.options.limits.maxJsonCollectionSize ||
      messages.some((message) => methodOf(message) === 'initialize')
    ) {
      return sendJson(
        response,
        400,
        errorResponse(null, { code: JsonRpcErrorCode.INVALID_REQUEST, message: 'Invalid Request: JSON-RPC batches are not accepted here' }),
      );
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
    if (!this.hub.hasRoomFor(tenant))
      return sendRefusal(response, 'RATE_LIMITED', 'this tenant has too many open streams', { retryAfterMs: STREAM_RETRY_AFTER_MS });
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
    if (!this.hub.hasRoomFor(tenant))
      return sendRefusal(response, 'RATE_LIMITED', 'this tenant has too many open streams', { retryAfterMs: STREAM_RETRY_AFTER_MS });
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
    if (revisionHas(session.protocolVersion, 'priming')) stream.prime(this.options.streams.retryMs);
    this.hub.setStandalone(session.id, stream);
  }
}

function paramsOf(body: unknown): { capabilities?: Record<string, unknown>; clientInfo?: Record<string, unknown> } {
  const params = typeof body === 'object' && body !== null ? (body as { params?: unknown }).params : undefined;
  return typeof params === 'object' && params !== null
    ? (params as { capabilities?: Record<string, unknown>; clientInfo?: Record<string, unknown> })
    : {};
}
