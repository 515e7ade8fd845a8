import { Injectable } from '@nestjs/common';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { classifyMessage, errorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest } from '../../core/json-rpc/json-rpc.types.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { hasVersionClaim, isPlainObject, missingEnvelopeKeys } from './envelope.js';
import { carriesModernClaim, checkEnvelope } from '../era-router.js';
import { ModernRefusals } from './refusals.js';
import { MODERN_PROTOCOL_VERSIONS } from './rev-2026-07-28.constants.js';
import { McpModernServer } from './rev-2026-07-28.server.js';
import { McpListenService, type ListenHandle } from './subscriptions/listen.service.js';

/**
 * The era of one stdio connection. A stdio process serves one client, which picks the era with its first
 * real message: a claim-less `initialize` pins the legacy era for the life of the process, a request with a
 * valid modern claim pins the modern era. A `server/discover` probe is answered without pinning (the client
 * may still fall back to `initialize`).
 */
export interface McpStdioEra {
  era?: 'legacy' | 'modern';
  /** Where this connection's modern requests are cancelled (`notifications/cancelled`). */
  readonly cancellationScope: string;
  /** Open `subscriptions/listen`, by request id. */
  readonly listens: Map<string, ListenHandle>;
}

/** The stdio connection's side of one message: who sent it and where answers go (stdout). */
export interface McpStdioLink {
  readonly principal?: McpPrincipal;
  readonly send: (message: JsonRpcMessage) => void;
}

/** The 2026-07-28 side of the stdio transport (see {@link McpStdioEra} for the pinning rules). */
@Injectable()
export class McpModernStdioHandler {
  private connections = 0;

  constructor(
    private readonly server: McpModernServer,
    private readonly dispatcher: McpDispatcher,
    private readonly listens: McpListenService,
  ) {}

  openConnection(): McpStdioEra {
    return { cancellationScope: `stdio-modern:${++this.connections}`, listens: new Map() };
  }

  /** Ends the connection's listens (stdin closed). */
  closeConnection(state: McpStdioEra): void {
    for (const listen of state.listens.values()) listen.close();
    state.listens.clear();
  }

  /** Serves `value` when it belongs to the modern era; false leaves it to the legacy stdio path. */
  async handle(value: unknown, state: McpStdioEra, link: McpStdioLink): Promise<boolean> {
    if (state.era === 'legacy') return false;
    if (!isPlainObject(value) || typeof value.method !== 'string') {
      if (state.era !== 'modern') return false;
      // A response answers a server request; this era sends none, so there is nothing to settle.
      if (isPlainObject(value) && ('result' in value || 'error' in value)) return true;
      const id = isPlainObject(value) && (typeof value.id === 'string' || typeof value.id === 'number') ? value.id : null;
      link.send(errorResponse(id, ModernRefusals.invalidRequest('only requests and notifications are accepted here').toJsonRpcError()));
      return true;
    }
    const claims = hasVersionClaim(value.params);
    if (!('id' in value)) {
      if (!claims && state.era !== 'modern') return false;
      this.notification(value.method, value.params, state);
      return true;
    }
    const id = typeof value.id === 'string' || typeof value.id === 'number' ? value.id : null;
    if (value.method === 'initialize' && !carriesModernClaim(value.params)) {
      if (state.era !== 'modern') {
        state.era = 'legacy';
        return false;
      }
      // A modern connection cannot fall back: name the revisions it speaks (stdio has no status to say it).
      const requested = isPlainObject(value.params) && typeof value.params.protocolVersion === 'string' ? value.params.protocolVersion : 'unknown';
      link.send(errorResponse(id, ModernRefusals.unsupportedVersion(requested).toJsonRpcError()));
      return true;
    }
    if (!claims) {
      if (state.era !== 'modern') return false;
      link.send(errorResponse(id, ModernRefusals.missingEnvelope(missingEnvelopeKeys(value.params)).toJsonRpcError()));
      return true;
    }
    const classified = classifyMessage(value);
    if (classified.kind !== 'request') {
      link.send(errorResponse(id, ModernRefusals.invalidRequest(classified.kind === 'invalid' ? classified.reason : 'not a request').toJsonRpcError()));
      return true;
    }
    await this.request(classified.message, state, link);
    return true;
  }

  private async request(request: JsonRpcRequest, state: McpStdioEra, link: McpStdioLink): Promise<void> {
    let envelope;
    try {
      envelope = checkEnvelope(request);
    } catch (error) {
      if (error instanceof McpProtocolError) return link.send(errorResponse(request.id, error.toJsonRpcError()));
      throw error;
    }
    if (request.method !== 'server/discover') state.era = 'modern';
    if (request.method === 'subscriptions/listen') return this.listen(request, envelope, state, link);
    const answer = await this.server.serve(
      { request, envelope },
      { transport: 'stdio', principal: link.principal, send: link.send, cancellationScope: state.cancellationScope },
    );
    if (answer) link.send(answer.response);
  }

  private listen(request: JsonRpcRequest, envelope: ReturnType<typeof checkEnvelope>, state: McpStdioEra, link: McpStdioLink): void {
    try {
      const handle = this.listens.open(request.id, request.params ?? {}, envelope, { send: link.send, end: link.send }, this.server.identity);
      state.listens.set(listenKey(request.id), handle);
    } catch (error) {
      if (!(error instanceof McpProtocolError)) throw error;
      link.send(errorResponse(request.id, error.toJsonRpcError()));
    }
  }

  /** `notifications/cancelled` ends a listen or cancels a request of this connection; others need nothing. */
  private notification(method: string, params: unknown, state: McpStdioEra): void {
    if (method !== 'notifications/cancelled' || !isPlainObject(params)) return;
    const requestId = params.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const listen = state.listens.get(listenKey(requestId));
    if (listen) {
      listen.close();
      state.listens.delete(listenKey(requestId));
      return;
    }
    void this.dispatcher.dispatch(
      { jsonrpc: '2.0', method, params },
      { transport: 'stdio', protocolVersion: MODERN_PROTOCOL_VERSIONS[0], cancellationScope: state.cancellationScope },
    );
  }
}

function listenKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}
