import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpAuthService } from '../../auth/mcp-auth.service.js';
import type { JsonRpcId, JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { httpCaller, type McpCaller } from '../../core/mcp-caller.js';
import type { McpChannelStream, McpSubscriptionSink } from '../../core/mcp-channel.interface.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { tenantOf } from '../../core/tenant.js';
import { traceHeadersFrom } from '../../core/trace-headers.js';
import type { McpEraChannel } from '../../eras/mcp-era.channel.js';
import type { McpStreamHub } from '../streams/stream-hub.js';
import { sendTooManyStreams } from './http-json-rpc.responses.js';
import { headerOf } from './incoming-json.js';
import { PostReply } from './post-reply.js';
import type { SseWriter } from './sse-writer.js';

/** What every POST's channel shares, made once by the transport. */
export interface HttpPostServices {
  readonly hub: McpStreamHub;
  readonly auth: McpAuthService;
  readonly retryMs: number;
  readonly trustProxy: Parameters<typeof httpCaller>[3];
}

/**
 * The channel of one Streamable HTTP POST, whatever the era of its message: what the request names, and how its
 * answer is written (one JSON response, or an SSE stream once it sends; a subscription's stream). One object per POST,
 * its capabilities methods on the prototype.
 */
export class HttpPostChannel implements McpEraChannel {
  readonly transport = 'http';
  readonly sessionId: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly traceHeaders: Readonly<Record<string, string>> | undefined;
  readonly caller: McpCaller;
  /** The reply an engine opened for the answer; undefined: the answer is written without one. */
  reply?: PostReply;

  constructor(
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
    readonly principal: McpPrincipal | undefined,
    private readonly canStream: boolean,
    private readonly services: HttpPostServices,
  ) {
    this.sessionId = headerOf(request, 'mcp-session-id');
    this.protocolVersion = headerOf(request, 'mcp-protocol-version');
    this.traceHeaders = traceHeadersFrom((name) => headerOf(request, name));
    this.caller = httpCaller(request, principal, 'http', services.trustProxy);
  }

  stream({ sessionId, priming }: { readonly sessionId?: string; readonly priming: boolean }): McpChannelStream {
    const { canStream, services } = this;
    const reply = new PostReply(this.response, services.hub, tenantOf(this.principal), sessionId, priming ? services.retryMs : undefined);
    this.reply = reply;
    return {
      send: canStream ? (message: JsonRpcMessage) => reply.send(message) : undefined,
      onInsufficientScope: (scopes) => reply.refuse(403, { 'WWW-Authenticate': services.auth.insufficientScopeChallenge(scopes) }),
      closeStream: canStream && sessionId ? () => reply.closeConnection(services.retryMs) : undefined,
    };
  }

  onAbandon(listener: () => void): void {
    this.reply?.onAbandon(listener);
  }

  header(name: string): string | undefined {
    return headerOf(this.request, name);
  }

  /** The SSE stream of a subscription, opened at its first message; refused (429) when the tenant has too many. */
  async subscribe(id: JsonRpcId, close: () => void): Promise<McpSubscriptionSink | undefined> {
    const { hub } = this.services;
    const { response } = this;
    const tenant = tenantOf(this.principal);
    if (!(await hub.hasRoomFor(tenant))) return void sendTooManyStreams(response, id);
    let writer: SseWriter | undefined;
    const send = (message: unknown) => {
      if (!writer) (writer = hub.connect(response, tenant, close)).open();
      writer.event(JSON.stringify(message), { event: 'message' });
    };
    return {
      send,
      end: (final) => {
        send(final);
        writer!.end();
      },
    };
  }
}
