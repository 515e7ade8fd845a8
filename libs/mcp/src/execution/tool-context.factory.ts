import { notification } from '../core/json-rpc/json-rpc.codec.js';
import { tenantOf } from '../core/tenant.js';
import type { JsonRpcId } from '../core/json-rpc/json-rpc.types.js';
import type { McpRequestContext } from '../core/mcp-request-context.interface.js';
import type {
  McpClientRequestOptions,
  McpElicitationResult,
  McpSamplingResult,
  McpToolContext,
} from '../core/mcp-tool-context.interface.js';
import type { McpClientRequests } from '../core/client-requests.js';
import { McpToolError } from '../core/errors/mcp-tool.error.js';
import { LOG_LEVELS } from '../core/mcp-log-level.js';
import { MCP_CALLER, MCP_CLIENT_CAPABILITIES } from '../core/caller-headers.js';

/** Whether the client declared what a request needs; URL-mode elicitation needs `elicitation.url` (spec 2025-11-25). */
function hasCapability(capabilities: Record<string, unknown> | undefined, capability: string, params: Record<string, unknown>): boolean {
  const declared = capabilities?.[capability];
  if (typeof declared !== 'object' || declared === null) return false;
  if (capability === 'elicitation' && params.mode === 'url') return typeof (declared as Record<string, unknown>).url === 'object';
  return true;
}

/** A tool context plus `finish()`, which stops progress and log messages once the response is on its way. */
export interface ToolContextHandle {
  readonly context: McpToolContext;
  finish(): void;
}

/** Where a tool context reads its `signal` from (the call, or an object holding the signal itself). */
const SIGNAL_SOURCE = Symbol('signal source');
const SIGNAL_PROPERTY: PropertyDescriptor = {
  get(this: { [SIGNAL_SOURCE]: { readonly signal: AbortSignal } }): AbortSignal {
    return this[SIGNAL_SOURCE].signal;
  },
  enumerable: true,
  configurable: true,
};

/** Builds the context a tool handler receives; progress and logs go to the request's channel if it has one. */
export function createToolContext(input: {
  requestId: JsonRpcId;
  toolName: string;
  progressToken: unknown;
  request: McpRequestContext;
  /** The call's signal; or, in `signalOf`, where to read it when first used (a lazily made controller stays unmade). */
  signal?: AbortSignal;
  signalOf?: { readonly signal: AbortSignal };
  /** Absent where the handler cannot talk back to the client (sampling and elicitation then fail cleanly). */
  clientRequests?: McpClientRequests;
}): ToolContextHandle {
  const { request } = input;
  /** Server → client request, only for capabilities the client declared (spec MUST). */
  const ask = async (capability: string, method: string, params: Record<string, unknown>, options?: McpClientRequestOptions) => {
    // The transport's own delivery (2026: input_required rounds) checks capabilities its own way.
    if (request.askClient) return request.askClient(method, params);
    if (!hasCapability(request.clientCapabilities, capability, params)) {
      throw new McpToolError('CLIENT_CAPABILITY_MISSING', `The client did not declare the "${capability}" capability needed for ${method}`);
    }
    if (!input.clientRequests) throw new McpToolError('CLIENT_UNREACHABLE', `${method} is not available here`);
    return input.clientRequests.request({
      scope: request.cancellationScope,
      send: request.send,
      method,
      params,
      signal: context.signal,
      timeoutMs: options?.timeoutMs,
    });
  };
  const send = request.send;
  const progressToken =
    typeof input.progressToken === 'string' || typeof input.progressToken === 'number' ? input.progressToken : undefined;
  let lastProgress = Number.NEGATIVE_INFINITY;
  let finished = false;
  const minimum = LOG_LEVELS.indexOf(request.logLevel ?? 'debug');

  const context = {
    [SIGNAL_SOURCE]: input.signalOf ?? (input as { readonly signal: AbortSignal }),
    requestId: input.requestId,
    toolName: input.toolName,
    sessionId: request.sessionId,
    protocolVersion: request.protocolVersion,
    transport: request.transport,
    principal: request.principal,
    tenant: tenantOf(request.principal),
    [MCP_CALLER]: request.caller,
    [MCP_CLIENT_CAPABILITIES]: request.clientCapabilities,
    reportProgress(progress, total, message) {
      // The spec wants progress to increase strictly and to stop with the response: drop anything else.
      if (finished || !send || progressToken === undefined || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      send(notification('notifications/progress', params));
    },
    log(level, data, logger) {
      if (finished || !send || LOG_LEVELS.indexOf(level) < minimum) return;
      send(notification('notifications/message', logger === undefined ? { level, data } : { level, logger, data }));
    },
    sample: async (params, options) => (await ask('sampling', 'sampling/createMessage', params, options)) as McpSamplingResult,
    elicit: async (params, options) => (await ask('elicitation', 'elicitation/create', params, options)) as McpElicitationResult,
    listRoots: async (options) => (await ask('roots', 'roots/list', {}, options)) as { roots: { uri: string; name?: string }[] },
    closeSseStream: () => request.closeStream?.(),
  } as Omit<McpToolContext, 'signal'> as McpToolContext;
  // A getter shared by every context, defined after the literal: a getter in the literal itself would put each
  // context in dictionary mode (slow property reads), and a per-call closure would cost an allocation.
  Object.defineProperty(context, 'signal', SIGNAL_PROPERTY);
  return {
    context,
    finish: () => {
      finished = true;
    },
  };
}
