import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { DEFAULT_TENANT } from '../../execution/tool-context.factory.js';
import { errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { sendHttpError, sendJson } from '../../transports/http/http-json-rpc.responses.js';
import { headerOf } from '../../transports/http/incoming-json.js';
import { principalOf } from '../../transports/http/request-principal.js';
import type { SseWriter } from '../../transports/http/sse-writer.js';
import { McpStreamHub } from '../../transports/streams/stream-hub.js';
import type { McpModernEnvelope } from './envelope.js';
import { routeHttpMessage } from '../era-router.js';
import { McpModernRefusal, modernHttpStatus } from './refusals.js';
import { McpModernServer, type McpModernChannel } from './rev-2026-07-28.server.js';
import { McpLegacySessionTracker } from './subscriptions/legacy-session.tracker.js';
import { McpListenService, type ListenHandle } from './subscriptions/listen.service.js';

/**
 * The 2026-07-28 side of the Streamable HTTP endpoint. The legacy transport hands it every parsed POST body
 * first; it keeps the modern ones (a `_meta` protocol-version claim, or a modern `MCP-Protocol-Version` header)
 * and returns false for the rest, which the legacy transport serves exactly as before.
 *
 * A modern request has no session: `Mcp-Session-Id` is ignored and none is minted. Its answer is one JSON
 * response, or an SSE stream when the request sends progress or log lines first (and the client accepts SSE).
 * The client closing the response cancels the request.
 */
@Injectable()
export class McpModernHttpHandler {
  constructor(
    private readonly server: McpModernServer,
    private readonly dispatcher: McpDispatcher,
    private readonly listens: McpListenService,
    private readonly hub: McpStreamHub,
    private readonly auth: McpAuthService,
    private readonly legacySessions: McpLegacySessionTracker,
  ) {}

  /** Serves `body` when it belongs to the modern era; false leaves it to the legacy transport. */
  async handlePost(request: Request, response: Response, body: unknown): Promise<boolean> {
    const header = (name: string) => headerOf(request, name);
    const route = routeHttpMessage(body, header);
    switch (route.era) {
      case 'legacy':
        this.legacySessions.seen(header('mcp-session-id'));
        return false;
      case 'refused':
        sendJson(response, route.refusal.status, errorResponse(route.id, route.refusal.toJsonRpcError()));
        return true;
      case 'modern':
        if (route.kind === 'notification') {
          // Nothing to do for a client notification over HTTP (cancellation is closing the response).
          response.status(202).end();
          return true;
        }
        if (route.request.method === 'subscriptions/listen') this.listen(request, response, route.request, route.envelope);
        else await this.call(request, response, route.request, route.envelope);
        return true;
    }
  }

  private async call(request: Request, response: Response, rpc: JsonRpcRequest, envelope: McpModernEnvelope): Promise<void> {
    const principal = principalOf(request);
    const reply = new ModernReply(response, this.hub, principal?.tenant ?? DEFAULT_TENANT);
    const scope = `modern:${randomUUID()}`;
    const channel: McpModernChannel = {
      transport: 'http',
      principal,
      send: /text\/event-stream/i.test(headerOf(request, 'accept') ?? '') ? (message) => reply.send(message) : undefined,
      cancellationScope: scope,
      onInsufficientScope: (scopes) => reply.refuse(403, { 'WWW-Authenticate': this.auth.insufficientScopeChallenge(scopes) }),
      header: (name) => headerOf(request, name),
    };
    // Closing the response stream cancels the request (2026-07-28): the handler's signal aborts.
    response.on('close', () => {
      if (reply.finished) return;
      reply.abandoned = true;
      void this.dispatcher.dispatch(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rpc.id, reason: 'response stream closed' } },
        { transport: 'http', protocolVersion: envelope.protocolVersion, cancellationScope: scope },
      );
    });
    const answer = await this.server.serve({ request: rpc, envelope }, channel);
    if (reply.abandoned) return;
    reply.finish(answer?.status ?? 200, answer?.response);
  }

  /** `subscriptions/listen`: an SSE stream that starts with the acknowledgement and stays open. */
  private listen(request: Request, response: Response, rpc: JsonRpcRequest, envelope: McpModernEnvelope): void {
    const tenant = principalOf(request)?.tenant ?? DEFAULT_TENANT;
    if (!this.hub.hasRoomFor(tenant)) return sendHttpError(response, 429, 'Too Many Requests: this tenant has too many open streams', { id: rpc.id, headers: { 'Retry-After': '5' } });
    let handle: ListenHandle | undefined;
    let writer: SseWriter | undefined;
    const stream = (): SseWriter => {
      if (!writer) {
        writer = this.hub.connect(response, tenant, () => handle?.close());
        writer.open();
      }
      return writer;
    };
    try {
      handle = this.listens.open(
        rpc.id,
        rpc.params ?? {},
        envelope,
        {
          send: (message) => void stream().event(JSON.stringify(message), { event: 'message' }),
          end: (final) => {
            stream().event(JSON.stringify(final), { event: 'message' });
            stream().end();
          },
        },
        this.server.identity,
      );
    } catch (error) {
      if (!(error instanceof McpProtocolError)) throw error;
      const status = error instanceof McpModernRefusal ? error.status : modernHttpStatus(error.toJsonRpcError());
      sendJson(response, status, errorResponse(rpc.id, error.toJsonRpcError()));
    }
  }
}

/** One modern POST's answer: JSON, unless a notification goes out first (then SSE, ending with the response). */
class ModernReply {
  finished = false;
  /** Set when the client closed the connection first: nothing more may be written. */
  abandoned = false;
  private writer?: SseWriter;
  private refusal?: { status: number; headers: Record<string, string> };

  constructor(
    private readonly response: Response,
    private readonly hub: McpStreamHub,
    private readonly tenant: string,
  ) {}

  refuse(status: number, headers: Record<string, string>): void {
    this.refusal = { status, headers };
  }

  send(message: JsonRpcMessage): void {
    if (this.finished || this.abandoned) return;
    if (!this.writer) {
      if (this.response.headersSent) return;
      this.writer = this.hub.connect(this.response, this.tenant, () => undefined);
      this.writer.open();
    }
    this.writer.event(JSON.stringify(message), { event: 'message' });
  }

  finish(status: number, answer: JsonRpcResponse | undefined): void {
    this.finished = true;
    if (this.writer) {
      if (answer) this.writer.event(JSON.stringify(answer), { event: 'message' });
      this.writer.end();
      return;
    }
    if (answer) return sendJson(this.response, this.refusal?.status ?? status, answer, this.refusal?.headers);
    this.response.status(202).end();
  }
}
