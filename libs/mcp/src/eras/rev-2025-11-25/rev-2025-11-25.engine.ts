import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpAnswer, McpChannelStream, McpRefusalReason } from '../../core/mcp-channel.interface.js';
import type { McpEraChannel } from '../mcp-era.channel.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcId, JsonRpcResponse } from '../../core/json-rpc/json-rpc.types.js';
import { errorCodeSpec } from '../../core/errors/error-codes.js';
import { idOf } from '../../core/json-rpc/json-rpc.codec.js';
import { clientText } from '../../core/client-text.js';
import { isPlainObject } from '../../core/plain-object.js';
import {
  DEFAULT_HTTP_PROTOCOL_VERSION,
  HTTP_SSE_PROTOCOL_VERSION,
  isSupportedProtocolVersion,
  revisionHas,
} from '../../core/protocol-revisions.js';
import type { McpSessionRecord } from '../../sessions/mcp-session.record.js';
import { McpSessionService } from '../../sessions/mcp-session.service.js';
import { McpRev20251125SessionTracker } from './rev-2025-11-25-sessions.tracker.js';

/** Where the state of the conversation lives while one message is served. */
interface Conversation {
  readonly session?: McpSessionRecord;
  readonly protocolVersion: string;
}

/**
 * The engine of the session era (2024-11-05 … 2025-11-25): sessions, batches, `initialize`, version negotiation
 * and the request context, above the dispatcher. Transports frame bytes and render its {@link McpAnswer}.
 */
@Injectable()
export class McpRev20251125Engine {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly sessions: McpSessionService,
    private readonly tracker: McpRev20251125SessionTracker,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /** Opens the session of a 2024-11-05 HTTP+SSE stream; undefined when the tenant has too many sessions. */
  openStreamSession(principal: McpPrincipal | undefined, instance: string): Promise<McpSessionRecord | undefined> {
    return this.sessions.create({
      transport: 'sse',
      instance,
      protocolVersion: HTTP_SSE_PROTOCOL_VERSION,
      clientCapabilities: {},
      principal,
    });
  }

  /** Whether a session's GET stream starts with a priming event (clients at 2025-11-25 or later). */
  primes(session: McpSessionRecord): boolean {
    return revisionHas(session.protocolVersion, 'priming');
  }

  /** Serves one message or batch. Synchronous refusals resolve without a store read; answers follow dispatch. */
  async serve(body: unknown, channel: McpEraChannel): Promise<McpAnswer> {
    const opening = channel.connection || channel.session ? this.held(body, channel) : this.named(body, channel);
    // Without a session to look up the check is synchronous: no await (a tick) for it.
    const opened = opening instanceof Promise ? await opening : opening;
    if ('kind' in opened) return opened;
    if (channel.session) return this.onStream(body, opened, channel);
    const stream = channel.stream?.({ sessionId: opened.session?.id, priming: revisionHas(opened.protocolVersion, 'priming') });
    const context = this.context(opened, channel, stream);
    if (Array.isArray(body)) return this.batch(body, context);
    const answer = await this.dispatcher.dispatch(body, context);
    if (!isInitialized(body, answer)) return { kind: 'reply', reply: answer };
    return this.initialized(body, answer, opened, channel);
  }

  /** The batch rule of a revision (2025-03-26 only), bounded, without `initialize`; also checked by HTTP+SSE before forwarding. */
  refusesBatch(body: unknown, protocolVersion: string): boolean {
    return (
      Array.isArray(body) &&
      (!revisionHas(protocolVersion, 'batches') ||
        body.length === 0 ||
        body.length > this.options.limits.maxJsonCollectionSize ||
        body.some((message) => methodOf(message) === 'initialize'))
    );
  }

  /** A connection or stream that holds its own state: only the batch rule can refuse. */
  private held(body: unknown, channel: McpEraChannel): Conversation | McpAnswer {
    const protocolVersion = channel.session?.protocolVersion ?? channel.connection!.protocolVersion;
    return this.refusesBatch(body, protocolVersion) ? refused('invalid-batch', null) : { session: channel.session, protocolVersion };
  }

  /** Streamable HTTP: the session the message names (by `sessions.mode`) and its header's revision; sync unless a lookup is due. */
  private named(body: unknown, channel: McpEraChannel): Conversation | McpAnswer | Promise<Conversation | McpAnswer> {
    this.tracker.seen(channel.sessionId);
    const isInitialize = methodOf(body) === 'initialize';
    const mode = this.options.sessions.mode;
    if (mode === 'stateless' || channel.sessionId === undefined) {
      if (mode === 'required' && !isInitialize) return refused('session-required', idOf(body));
      return this.negotiated(body, channel, undefined);
    }
    if (isInitialize) return refused('session-initialized', idOf(body));
    return this.sessions.find(channel.sessionId, channel.principal).then((session) =>
      // Unknown, ended, expired, or another principal's: all look the same (no existence leak).
      session ? this.negotiated(body, channel, session) : refused('session-not-found', idOf(body)),
    );
  }

  /**
   * The revision in force: the header's when supported, else the session's or the default. An unsupported header
   * is a 400 (spec 2025-06-18) except on `initialize` and the `server/discover` probe (-32601 at HTTP 200).
   */
  private negotiated(body: unknown, channel: McpEraChannel, session: McpSessionRecord | undefined): Conversation | McpAnswer {
    const named = channel.protocolVersion;
    const supported = named !== undefined && isSupportedProtocolVersion(named);
    const method = methodOf(body);
    const probe = method === 'server/discover' && isPlainObject(body) && 'id' in body;
    if (named !== undefined && !supported && method !== 'initialize' && !probe) return refused('unsupported-version', idOf(body), named);
    const protocolVersion = supported ? named : (session?.protocolVersion ?? DEFAULT_HTTP_PROTOCOL_VERSION);
    return this.refusesBatch(body, protocolVersion) ? refused('invalid-batch', null) : { session, protocolVersion };
  }

  private context(conversation: Conversation, channel: McpEraChannel, stream: McpChannelStream | undefined): McpRequestContext {
    const { session, protocolVersion } = conversation;
    const connection = channel.connection;
    return {
      transport: channel.transport,
      protocolVersion,
      principal: channel.principal,
      sessionId: session?.id,
      clientCapabilities: session?.clientCapabilities ?? connection?.clientCapabilities,
      logLevel: session?.logLevel ?? connection?.logLevel,
      setLogLevel: session
        ? (level) => this.sessions.update({ ...session, logLevel: level })
        : connection &&
          (async (level) => {
            connection.logLevel = level;
          }),
      cancellationScope: session?.id ?? channel.cancellationScope,
      send: stream?.send,
      onInsufficientScope: stream?.onInsufficientScope,
      closeStream: stream?.closeStream,
      traceHeaders: channel.traceHeaders,
      caller: channel.caller,
    };
  }

  /** A batch answers in one array, without a stream (its elements' progress has nowhere to go). */
  private async batch(messages: unknown[], context: McpRequestContext): Promise<McpAnswer> {
    const batchContext: McpRequestContext = { ...context, send: undefined };
    const replies = (await Promise.all(messages.map((message) => this.dispatcher.dispatch(message, batchContext)))).filter(
      (reply): reply is JsonRpcResponse => reply !== undefined,
    );
    return { kind: 'reply', reply: replies.length === 0 ? undefined : replies };
  }

  /** HTTP+SSE (2024-11-05): the POST is accepted at once, each answer goes out on the session's stream when ready. */
  private onStream(body: unknown, conversation: Conversation, channel: McpEraChannel): McpAnswer {
    const send = channel.stream?.({ sessionId: conversation.session?.id, priming: false }).send;
    const context = this.context(conversation, channel, { send });
    for (const message of Array.isArray(body) ? body : [body]) {
      void this.dispatcher.dispatch(message, context).then(async (answer) => {
        if (isInitialized(message, answer)) await this.initialized(message, answer, conversation, channel);
        if (answer) send?.(answer);
      });
    }
    return { kind: 'accepted' };
  }

  /** After `initialize`: the connection or HTTP+SSE session takes the revision; Streamable HTTP creates a session. */
  private async initialized(
    message: unknown,
    answer: JsonRpcResponse & { result: Record<string, unknown> },
    conversation: Conversation,
    channel: McpEraChannel,
  ): Promise<McpAnswer> {
    const params = isPlainObject(message) && isPlainObject(message.params) ? message.params : {};
    const protocolVersion = String(answer.result.protocolVersion);
    const clientCapabilities = isPlainObject(params.capabilities) ? params.capabilities : {};
    const clientInfo = isPlainObject(params.clientInfo) ? params.clientInfo : undefined;
    if (channel.connection) {
      channel.connection.protocolVersion = protocolVersion;
      channel.connection.clientCapabilities = clientCapabilities;
    } else if (conversation.session) {
      await this.sessions.update({ ...conversation.session, protocolVersion, clientCapabilities, clientInfo });
    } else if (this.options.sessions.mode !== 'stateless') {
      const created = await this.sessions.create({
        transport: 'streamable-http',
        protocolVersion,
        clientCapabilities,
        clientInfo,
        principal: channel.principal,
      });
      if (!created) return refused('too-many-sessions', answer.id);
      return { kind: 'reply', reply: answer, createdSessionId: created.id };
    }
    return { kind: 'reply', reply: answer };
  }
}

/** The JSON-RPC error of each refusal (what stdio sends as a line; HTTP adds its status). */
const REFUSALS: Record<McpRefusalReason, (detail?: string) => { code: number; message: string }> = {
  'session-required': () => ({ code: JsonRpcErrorCode.SERVER_ERROR, message: 'Bad Request: Mcp-Session-Id header required' }),
  'session-initialized': () => ({
    code: JsonRpcErrorCode.INVALID_REQUEST,
    message: 'Invalid Request: this session is already initialized',
  }),
  'session-not-found': () => ({ code: JsonRpcErrorCode.SESSION_NOT_FOUND, message: 'Session not found' }),
  'unsupported-version': (version) => ({
    code: JsonRpcErrorCode.SERVER_ERROR,
    message: `Bad Request: unsupported MCP-Protocol-Version "${clientText(version)}"`,
  }),
  'invalid-batch': () => ({ code: JsonRpcErrorCode.INVALID_REQUEST, message: 'Invalid Request: JSON-RPC batches are not accepted here' }),
  'too-many-sessions': () => {
    const spec = errorCodeSpec('RATE_LIMITED');
    return { code: spec.jsonRpcCode, message: spec.message('this tenant has too many open sessions') };
  },
};

function refused(reason: McpRefusalReason, id: JsonRpcId | null, detail?: string): McpAnswer {
  return { kind: 'refused', reason, id, error: REFUSALS[reason](detail) };
}

function isInitialized(
  message: unknown,
  answer: JsonRpcResponse | undefined,
): answer is JsonRpcResponse & { result: Record<string, unknown> } {
  return answer !== undefined && 'result' in answer && methodOf(message) === 'initialize';
}

function methodOf(message: unknown): string | undefined {
  return isPlainObject(message) && typeof message.method === 'string' ? message.method : undefined;
}
