import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { MCP_RESOLVED_OPTIONS, type McpCoreSettings } from './mcp-resolved-options.token.js';
import { violatedJsonLimit, type JsonLimits } from './json-rpc/json-limits.js';
import type { McpRequestContext } from './mcp-request-context.interface.js';
import type { McpCall, McpMethodHandler } from './method-handler.interface.js';
import { collectMethodHandlers, servedMethods, type McpContributedHandler } from './method-handler.collector.js';
import { classifyMessage, errorResponse, idOf, successResponse } from './json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from './json-rpc/json-rpc-error-codes.js';
import type { JsonRpcId, JsonRpcNotification, JsonRpcParams, JsonRpcRequest, JsonRpcResponse } from './json-rpc/json-rpc.types.js';
import { McpProtocolError } from './errors/protocol-error.js';
import { MCP_ERROR_CODES } from './errors/error-codes.js';
import { McpStoreUnavailableError } from './errors/store-unavailable.error.js';
import { McpClientRequests } from './client-requests.js';
import { McpControlFlowSignal } from './control-flow.signal.js';
import { clientText } from './client-text.js';
import { errorLogText } from './error-log-text.js';
import { MCP_TRACER, NOOP_MCP_TRACER, type McpTracer } from './mcp-tracer.interface.js';
import { MCP_METRICS, NOOP_MCP_METRICS, type McpMetrics } from './mcp-metrics.interface.js';
import { MCP_BUS, type McpMessageBus } from './message-bus.interface.js';
import { LazyAbortController } from './lazy-abort-controller.js';

/** Bus channel on which a `notifications/cancelled` reaches the instance running the request it names. */
const CANCELLED_CHANNEL = 'requests:cancelled';

/** A cancellation as it travels between instances. */
interface RelayedCancellation {
  scope: string;
  requestId: JsonRpcId;
  reason?: string;
}

/**
 * The transport-agnostic JSON-RPC core: one parsed message in, at most one response out, no per-client state
 * beyond the calls in flight. Its methods are the `@McpMethodHandlerProvider()` providers.
 */
@Injectable()
export class McpDispatcher implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpModule');
  private contributed: readonly McpContributedHandler[] = [];
  /** Empty until `onApplicationBootstrap`: every transport starts after it (they depend on the dispatcher). */
  private handlers = new Map<string, McpMethodHandler>();
  private readonly inFlight = new Map<string, LazyAbortController>();
  private readonly limits: JsonLimits;
  private stopRelay?: () => Promise<void>;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(MCP_RESOLVED_OPTIONS) options: McpCoreSettings,
    private readonly clientRequests: McpClientRequests,
    @Optional() @Inject(MCP_TRACER) private readonly tracer: McpTracer = NOOP_MCP_TRACER,
    @Optional() @Inject(MCP_METRICS) private readonly metrics: McpMetrics = NOOP_MCP_METRICS,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
  ) {
    this.limits = { maxDepth: options.limits.maxJsonDepth, maxCollectionSize: options.limits.maxJsonCollectionSize };
  }

  onModuleInit(): void {
    this.contributed = collectMethodHandlers(this.discovery, this);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.handlers = servedMethods(this.contributed);
    // With other instances, a request may run on one while its `notifications/cancelled` reaches another.
    if (this.bus?.crossesInstances)
      this.stopRelay = await this.bus.subscribe(CANCELLED_CHANNEL, (message) => {
        const { scope, requestId, reason } = (message ?? {}) as Partial<RelayedCancellation>;
        if (typeof scope === 'string' && (typeof requestId === 'string' || typeof requestId === 'number'))
          this.cancel(scope, requestId, typeof reason === 'string' ? reason : undefined);
      });
  }

  /** Calls still draining at shutdown can be cancelled until the end. */
  async onApplicationShutdown(): Promise<void> {
    await this.stopRelay?.().catch(() => undefined);
  }

  /** Handles one message: a request's response, else `undefined`; `handler` replaces the registered one (an era's own method). */
  async dispatch(value: unknown, context: McpRequestContext, handler?: McpMethodHandler): Promise<JsonRpcResponse | undefined> {
    const violation = violatedJsonLimit(value, this.limits);
    if (violation) return invalidRequest(idOf(value), violation);
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'request':
        return this.served(classified.message, context, handler);
      case 'notification':
        this.handleNotification(classified.message, context);
        return undefined;
      case 'response':
        this.clientRequests.settle(context.cancellationScope, classified.message);
        return undefined;
      case 'invalid':
        this.metrics.request(undefined, 'error', context);
        return invalidRequest(classified.id, classified.reason);
    }
  }

  /** Handles one request an era already classified, with the same limits, cancellation, errors and metrics as {@link dispatch}. */
  dispatchRequest(request: JsonRpcRequest, context: McpRequestContext, handler?: McpMethodHandler): Promise<JsonRpcResponse | undefined> {
    const violation = violatedJsonLimit(request, this.limits);
    return violation ? Promise.resolve(invalidRequest(request.id, violation)) : this.served(request, context, handler);
  }

  /** Answers a request, traced, and reports its outcome to the metrics (a method no handler serves without its name). */
  private async served(request: JsonRpcRequest, context: McpRequestContext, own?: McpMethodHandler): Promise<JsonRpcResponse | undefined> {
    const handler = own ?? this.handlers.get(request.method);
    const method = handler ? request.method : undefined;
    try {
      const response = await this.tracer.request(request, context, handler !== undefined, () => this.answer(request, context, handler));
      this.metrics.request(method, response === undefined ? 'cancelled' : 'error' in response ? 'error' : 'success', context);
      return response;
    } catch (error) {
      this.metrics.request(method, 'error', context);
      throw error;
    }
  }

  private async answer(
    request: JsonRpcRequest,
    context: McpRequestContext,
    handler?: McpMethodHandler,
  ): Promise<JsonRpcResponse | undefined> {
    if (!handler)
      return errorResponse(request.id, {
        code: JsonRpcErrorCode.METHOD_NOT_FOUND,
        message: `Method not found: ${clientText(request.method)}`,
      });
    const controller = new LazyAbortController();
    const key = this.inFlightKey(context, request.id);
    if (key) this.inFlight.set(key, controller);
    try {
      const result = await handler.handle(new DispatchedCall(request.id, request.params ?? {}, context, controller));
      return controller.abortedWith(CancelledByClient) ? undefined : successResponse(request.id, result);
    } catch (error) {
      if (controller.abortedWith(CancelledByClient)) return undefined;
      if (error instanceof McpProtocolError) return errorResponse(request.id, error.toJsonRpcError());
      if (error instanceof McpStoreUnavailableError) {
        const data = { status: 'error', error: error.toErrorBody() };
        return errorResponse(request.id, { code: MCP_ERROR_CODES.UNAVAILABLE.jsonRpcCode, message: data.error.message, data });
      }
      // A control-flow signal is steering, not a failure: the era's own layer (2026 input rounds) decides the answer.
      if (!(error instanceof McpControlFlowSignal))
        this.logger.error(`${clientText(request.method)} failed (request ${clientText(request.id)}): ${errorLogText(error)}`);
      return errorResponse(request.id, { code: JsonRpcErrorCode.INTERNAL_ERROR, message: 'Internal error' });
    } finally {
      if (key && this.inFlight.get(key) === controller) this.inFlight.delete(key);
    }
  }

  private handleNotification(message: JsonRpcNotification, context: McpRequestContext): void {
    if (message.method !== 'notifications/cancelled') return; // initialized, roots/list_changed...: nothing to do
    const requestId = message.params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return; // malformed: ignored silently (spec)
    if (context.cancellationScope === undefined) return;
    const reason = typeof message.params?.reason === 'string' ? message.params.reason : undefined;
    if (this.cancel(context.cancellationScope, requestId, reason) || !this.bus?.crossesInstances) return;
    // Not running here: on another instance of the session, if anywhere (unknown ids are ignored there too).
    const relayed: RelayedCancellation = { scope: context.cancellationScope, requestId, reason };
    this.bus.publish(CANCELLED_CHANNEL, relayed).catch((error: unknown) => {
      this.logger.warn(`notifications/cancelled not relayed to the other instances: ${errorLogText(error)}`);
    });
  }

  /**
   * Cancels the request `id` in `scope` on this instance (also without a `notifications/cancelled`: closed stream,
   * input round); true when it was in flight here, unknown ids are ignored.
   */
  cancel(scope: string, id: JsonRpcId, reason?: string): boolean {
    const controller = this.inFlight.get(this.inFlightKey({ cancellationScope: scope }, id)!);
    controller?.abort(new CancelledByClient(reason));
    return controller !== undefined;
  }

  /** Ids are only unique per sender and connection, so cancellation is looked up within that scope. */
  private inFlightKey(context: Pick<McpRequestContext, 'cancellationScope'>, id: JsonRpcId): string | undefined {
    return context.cancellationScope === undefined ? undefined : `${context.cancellationScope}\u0000${typeof id}:${String(id)}`;
  }
}

function invalidRequest(id: JsonRpcId | null, reason: string): JsonRpcResponse {
  return errorResponse(id, { code: JsonRpcErrorCode.INVALID_REQUEST, message: `Invalid Request: ${reason}` });
}

/** One request as its handler sees it; `signal` is read through, so its controller is made only if used. */
class DispatchedCall implements McpCall {
  constructor(
    readonly id: JsonRpcId,
    readonly params: JsonRpcParams,
    readonly context: McpRequestContext,
    readonly controller: LazyAbortController,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }
}

/** Abort reason of a request the client cancelled with `notifications/cancelled`. */
export class CancelledByClient extends Error {
  constructor(reason?: string) {
    super(reason ?? 'Cancelled by the client');
    this.name = 'CancelledByClient';
  }
}
