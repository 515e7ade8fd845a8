import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { McpEraRouter } from '../../eras/mcp-era.router.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { McpSessionRecord } from '../../sessions/mcp-session.record.js';
import { McpSessionService } from '../../sessions/mcp-session.service.js';
import {
  sendHttpError,
  sendRefusal,
  sendSessionNotFound,
  sendStatus,
  sendTooManySessions,
  sendTooManyStreams,
} from '../http/http-json-rpc.responses.js';
import { headerOf, receiveJson } from '../http/incoming-json.js';
import { traceHeadersFrom } from '../../core/trace-headers.js';
import { httpCaller, type McpCaller } from '../../core/mcp-caller.js';
import { queryParamOf } from '../http/http-exchange.js';
import { BAD_HOST, publicBaseUrl } from '../http/public-base-url.js';
import { principalOf } from '../http/request-principal.js';
import type { SseWriter } from '../http/sse-writer.js';
import { McpStreamHub } from '../streams/stream-hub.js';
import { McpGlobalPrefix } from '../../options/mcp-global-prefix.js';
import { McpInstanceRouter, type McpRoute } from '../routing/mcp-instance.router.js';
import { McpInstanceLease } from '../../sessions/mcp-instance-lease.service.js';
import { tenantOf } from '../../core/tenant.js';

/** A POST received by another instance for a stream held here, as it travels on the bus. */
interface ForwardedPost {
  session: McpSessionRecord;
  principal?: McpPrincipal;
  body: unknown;
  traceHeaders?: Readonly<Record<string, string>>;
  /** Who sent it (headers, client address), as the receiving instance saw it; plain data on the bus. */
  caller?: McpCaller;
}

/**
 * The legacy HTTP+SSE transport (the one before Streamable HTTP): GET opens a stream whose first event is `endpoint` (an absolute messages URL); each
 * POST there gets 202 and is answered on the stream. A POST reaching another instance is forwarded on the bus.
 */
@Injectable()
export class McpHttpSseTransport {
  private readonly connections = new Map<string, SseWriter>();

  constructor(
    private readonly eras: McpEraRouter,
    private readonly sessions: McpSessionService,
    private readonly hub: McpStreamHub,
    private readonly router: McpInstanceRouter,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly globalPrefix: McpGlobalPrefix,
    private readonly lease: McpInstanceLease,
  ) {}

  /** Opens an HTTP+SSE stream (at `/sse`, or at `/mcp` for a GET asking for SSE without a session). */
  async open(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Shutting down: this stream would be cut at once; the client is better served by another instance.
    if (this.hub.isDraining) return sendRefusal(response, 'UNAVAILABLE', 'this instance is shutting down');
    // The endpoint event hands out an absolute URL: refuse a forged Host before anything is opened.
    const messagesPath = this.options.messagesPath;
    const base = publicBaseUrl(request, this.options.http, this.globalPrefix.of(messagesPath));
    if (base === undefined) return sendHttpError(response, 400, BAD_HOST);
    const principal = principalOf(request);
    const tenant = tenantOf(principal);
    if (!(await this.hub.hasRoomFor(tenant))) return sendTooManyStreams(response);
    const session = await this.eras.openStreamSession(principal, this.lease.id);
    if (!session) return sendTooManySessions(response);
    // Held before the client learns the messages URL, so no POST forwarded from another instance arrives before.
    const route = this.router.hold(sseRoute(session.id), (forwarded) => this.receiveForwarded(session.id, forwarded));
    const writer = this.hub.connect(response, tenant, () => {
      this.connections.delete(session.id);
      void route.then((release) => release()).catch(() => undefined);
      void this.sessions.end(session.id).catch(() => undefined);
    });
    await route; // a bus outage rejects: the filter answers 503 and the close above cleans up
    if (writer.closed) return;
    writer.open();
    this.connections.set(session.id, writer);
    writer.event(`${base}${messagesPath}?sessionId=${encodeURIComponent(session.id)}`, { event: 'endpoint' });
  }

  async post(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sessionId = queryParamOf(request, 'sessionId');
    if (!sessionId) return sendHttpError(response, 400, 'Bad Request: sessionId query parameter required');
    const principal = principalOf(request);
    const writer = this.connections.get(sessionId);
    // Not held here: with other instances, the stream may be held by one of them (the session record says it exists).
    const session = writer || this.router.spansInstances ? await this.sessions.find(sessionId, principal) : undefined;
    if (!session || session.transport !== 'sse') return sendSessionNotFound(response);
    // Its stream died with its instance (lease expired): gone, so the client reconnects instead of losing messages.
    if (!writer && !(await this.lease.isAlive(session.instance))) {
      await this.sessions.end(session.id);
      return sendSessionNotFound(response);
    }
    const body = await receiveJson(request, response, this.options.http.maxBodyBytes, this.options.limits.bodyTimeoutMs);
    if (body === receiveJson.NO_BODY) return;
    const post: ForwardedPost = {
      session,
      principal,
      body,
      traceHeaders: traceHeadersFrom((name) => headerOf(request, name)),
      caller: httpCaller(request, principal, 'sse', this.options.http.trustProxy),
    };
    // Refused before it is accepted (202) or forwarded: the holder's answers go to the stream, not to this POST.
    if (this.eras.refusesBatch(body, session)) {
      return sendHttpError(response, 400, 'Invalid Request: JSON-RPC batches are not accepted here', {
        code: JsonRpcErrorCode.INVALID_REQUEST,
      });
    }
    if (!writer) {
      // Rejects while the bus is down: 503, nothing accepted.
      if (await this.router.forward(sseRoute(sessionId), post)) return sendStatus(response, 202);
      return this.refuseUnheard(session, response);
    }
    sendStatus(response, 202);
    this.dispatchAll(post, writer);
  }

  /** A forwarded POST reached nobody: 404 if the holder's lease expired, else 503 (resubscribing after a bus outage). */
  private async refuseUnheard(session: McpSessionRecord, response: ServerResponse): Promise<void> {
    if (await this.lease.isAlive(session.instance))
      return sendRefusal(response, 'UNAVAILABLE', 'the instance holding this stream is not listening; retry shortly');
    await this.sessions.end(session.id);
    return sendSessionNotFound(response);
  }

  private receiveForwarded(sessionId: string, message: unknown): void {
    const forwarded = message as Partial<ForwardedPost> | null;
    const writer = this.connections.get(sessionId);
    if (!writer || forwarded?.session?.id !== sessionId || forwarded.body === undefined) return;
    this.dispatchAll(forwarded as ForwardedPost, writer);
  }

  /** Serves the message(s) of one POST; answers go out on the stream, in the order they are ready. */
  private dispatchAll({ session, principal, body, traceHeaders, caller }: ForwardedPost, writer: SseWriter): void {
    const send = (message: unknown) => writer.event(JSON.stringify(message), { event: 'message' });
    void this.eras.serve(body, { transport: 'sse', principal, session, traceHeaders, caller, stream: () => ({ send }) });
  }
}

// The bus name stays `legacy-sse`: instances of an older release may still hold these routes.
const sseRoute = (sessionId: string): McpRoute => ({ kind: 'legacy-sse', sessionId });
