import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpToolRegistry } from '../../features/tools/mcp-tool.registry.js';
import { ToolsHandlers } from '../../features/tools/tools.handlers.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { McpToolDefinition } from '../../features/tools/mcp-tool-definition.interface.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import { errorResponse, successResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcErrorObject, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../../core/json-rpc/json-rpc.types.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import type { McpToolCallHook } from '../../features/tools/tool-call-hook.interface.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { ownerOf } from '../../sessions/mcp-session.service.js';
import { hasInvalidLogLevel, type McpRev20260728Envelope } from './envelope.js';
import { isPlainObject } from '../../core/plain-object.js';
import { paramHeaderMismatch, scanParamHeaders, type McpParamHeader } from './http/header-values.js';
import { McpRev20260728Refusal, rev20260728HttpStatus, Rev20260728Refusals } from './refusals.js';
import { Rev20260728Messages } from './rev-2026-07-28.messages.js';
import { REV_2026_07_28_VERSIONS } from '../../core/protocol-revisions.js';
import {
  CACHEABLE_METHODS,
  DISPATCHED_METHODS,
  INPUT_REQUIRED_METHODS,
  META,
  TASKS_EXTENSION,
} from '../../core/rev-2026-07-28.constants.js';
import { McpClientInput } from '../../core/mcp-client-input.service.js';
import { McpInputRound } from './mrtr/input-round.js';
import { digestOf, McpRequestStateCodec } from './mrtr/request-state.codec.js';
import { assertTasksDeclared, McpRev20260728TasksExtension } from './tasks/rev-2026-07-28.tasks-extension.js';

/** A 2026-07-28 request that passed the era router's envelope and header checks. */
export interface McpRev20260728Call {
  readonly request: JsonRpcRequest;
  readonly envelope: McpRev20260728Envelope;
}

/** What the transport contributes to one 2026-07-28 request: those fields of its request context, and its headers. */
export interface McpRev20260728Channel extends Pick<
  McpRequestContext,
  'principal' | 'send' | 'onInsufficientScope' | 'traceHeaders' | 'caller'
> {
  readonly transport: 'http' | 'stdio' | 'memory';
  /** Unique to this request on HTTP, to the connection on stdio: where its cancellation is looked up. */
  readonly cancellationScope: string;
  /** HTTP request headers (lower-case names), for the `Mcp-Param-*` check; undefined on stdio. */
  readonly header?: (name: string) => string | undefined;
}

/** The response to send and, for HTTP, its status; undefined when the client cancelled the request. */
export interface McpRev20260728Answer {
  readonly status: number;
  readonly response: JsonRpcResponse;
}

/**
 * The transport-agnostic side of the 2026-07-28 era: every request stands alone (its `_meta` envelope, never a
 * session). It runs the last steps of the ladder (`Mcp-Param-*` headers), sends each request through the
 * dispatcher, and reshapes the answers for the revision (`resultType`, server identity, caching hints,
 * `input_required` rounds, -32602 for missing resources).
 */
@Injectable()
export class McpRev20260728Responder implements OnApplicationBootstrap {
  private readonly serverInfo: Record<string, string>;
  /** The `_meta` of a result that has none of its own: built once, only ever serialised. */
  private readonly identityMeta: Record<string, unknown>;
  private readonly paramHeaders = new Map<string, readonly McpParamHeader[]>();
  private scopedTools = false;

  /** The handler of one tools/call: the shared one, with this era's hook; made once, called per request. */
  private readonly toolCall = (input: RoundInput, call: McpRev20260728Call, channel: McpRev20260728Channel): McpMethodHandler =>
    new Rev20260728ToolCall(this, call, channel, input);

  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly capabilities: McpCapabilities,
    private readonly registry: McpToolRegistry,
    private readonly states: McpRequestStateCodec,
    readonly tasks: McpRev20260728TasksExtension,
    private readonly clientInput: McpClientInput,
    readonly tools: ToolsHandlers,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {
    this.serverInfo = { name: options.name, version: options.version };
    if (options.title) this.serverInfo.title = options.title;
    if (options.description) this.serverInfo.description = options.description;
    this.identityMeta = { [META.serverInfo]: this.serverInfo };
  }

  /** Reads every tool's `x-mcp-header` annotations once; a tool that breaks their rules fails the boot. */
  onApplicationBootstrap(): void {
    for (const descriptor of this.registry.listDescriptors()) {
      const scan = scanParamHeaders(descriptor.inputSchema);
      if (!scan.ok) throw new McpConfigurationError(Rev20260728Messages.invalidParamHeader(descriptor.name, scan.problem));
      if (scan.headers.length > 0) this.paramHeaders.set(descriptor.name, scan.headers);
      if ((this.registry.get(descriptor.name)?.scopes.length ?? 0) > 0) this.scopedTools = true;
    }
  }

  /** The server identity every result carries in `_meta`. */
  get identity(): Readonly<Record<string, string>> {
    return this.serverInfo;
  }

  /** Serves one request; resolves to undefined when the client cancelled it (nothing may be sent then). */
  async serve(call: McpRev20260728Call, channel: McpRev20260728Channel): Promise<McpRev20260728Answer | undefined> {
    const { request } = call;
    try {
      return await this.route(call, channel);
    } catch (error) {
      // Only the era's own checks before dispatch throw (everything past them, its tools/call hook's refusals
      // included, is answered by the dispatcher).
      if (error instanceof McpRev20260728Refusal)
        return { status: error.status, response: errorResponse(request.id, error.toJsonRpcError()) };
      if (error instanceof McpProtocolError) return this.failure(request, error.toJsonRpcError());
      throw error;
    }
  }

  /** Adds what every 2026-07-28 result carries: `resultType`, the server identity, caching hints where they belong. */
  shapeResult(method: string, result: Record<string, unknown>, principal: McpPrincipal | undefined): Record<string, unknown> {
    // Every answer: Object.assign and assignments, not `{ ...result, more }` ("Hot paths" in docs/architecture.md).
    const shaped: Record<string, unknown> = Object.assign({}, result);
    shaped.resultType ??= 'complete';
    if (shaped.resultType === 'complete' && CACHEABLE_METHODS.has(method)) {
      shaped.ttlMs = 0;
      shaped.cacheScope = this.cacheScope(method, principal);
    }
    if (isPlainObject(result._meta)) {
      const meta = Object.assign({}, result._meta);
      meta[META.serverInfo] = this.serverInfo;
      shaped._meta = meta;
    } else shaped._meta = this.identityMeta;
    if (method === 'tools/list' && Array.isArray(result.tools)) {
      // Task support is an extension now: the 2025-11-25 `execution` member is not part of a 2026 tool.
      shaped.tools = result.tools.map((tool: Record<string, unknown>) => {
        const { execution: _execution, ...rest } = tool;
        return rest;
      });
    }
    return shaped;
  }

  private async route(call: McpRev20260728Call, channel: McpRev20260728Channel): Promise<McpRev20260728Answer | undefined> {
    const { request } = call;
    const params = request.params ?? {};
    if (hasInvalidLogLevel(params)) {
      throw new McpProtocolError(
        JsonRpcErrorCode.INVALID_PARAMS,
        `Invalid params: ${META.logLevel} must be an RFC 5424 level (debug ... emergency)`,
      );
    }
    const own = OWN_METHODS.has(request.method) ? this.ownMethod(call, channel) : undefined;
    if (!own && !DISPATCHED_METHODS.has(request.method)) throw Rev20260728Refusals.methodNotFound(request.method);
    // tools/call takes the shared handler's path (alias, lookup, visibility, scopes, pipeline) with this era's hook.
    if (request.method === 'tools/call') return this.dispatch(call, channel, this.toolCall);
    return this.dispatch(call, channel, own && (() => own));
  }

  /** This era's own methods (`server/discover`, its `tasks/*`), served through the dispatcher like the shared ones. */
  private ownMethod(call: McpRev20260728Call, channel: McpRev20260728Channel): McpMethodHandler {
    const { request, envelope } = call;
    const handle =
      request.method === 'server/discover'
        ? () => this.discover()
        : async () => {
            if (!this.tasks.enabled) throw Rev20260728Refusals.methodNotFound(request.method);
            assertTasksDeclared(envelope); // before the task id is looked at
            const params = request.params ?? {};
            if (request.method === 'tasks/get') return this.tasks.get(params.taskId, channel.principal);
            if (request.method === 'tasks/update') return this.tasks.update(params.taskId, params.inputResponses, channel.principal);
            return this.tasks.cancel(params.taskId, channel.principal);
          };
    return { method: request.method, handle };
  }

  /** `server/discover`: the revisions, capabilities (`tasks` an extension rather than a key) and instructions of this server. */
  private discover(): Record<string, unknown> {
    const { tasks: _tasks20251125, ...capabilities } = structuredClone(this.capabilities.toJSON()) as Record<string, unknown>;
    if (this.tasks.enabled) capabilities.extensions = { ...(capabilities.extensions as object | undefined), [TASKS_EXTENSION]: {} };
    const result: Record<string, unknown> = { supportedVersions: [...REV_2026_07_28_VERSIONS], capabilities };
    if (this.options.instructions) result.instructions = this.options.instructions;
    return result;
  }

  /** A request through the dispatcher in its own context and input round; `own` gives the handler of an own method. */
  private async dispatch(
    call: McpRev20260728Call,
    channel: McpRev20260728Channel,
    own?: (input: RoundInput, call: McpRev20260728Call, channel: McpRev20260728Channel) => McpMethodHandler,
  ): Promise<McpRev20260728Answer | undefined> {
    const { request, envelope } = call;
    const mrtr = INPUT_REQUIRED_METHODS.has(request.method);
    const input = mrtr ? this.roundInput(request, channel.principal) : undefined;
    const handler = own?.(input ?? { known: {}, responses: {}, round: 1 }, call, channel);
    const round = new McpInputRound({
      capabilities: envelope.clientCapabilities,
      known: input?.known,
      responses: input?.responses,
      // Interrupting a handler that waits for input is a cancellation: the dispatcher then answers nothing and
      // logs nothing, and the round's record decides the answer.
      onInputRequired: () => this.dispatcher.cancel(channel.cancellationScope, request.id, 'input required'),
    });
    const { inputResponses: _responses, requestState: _state, task: _task20251125, ...params } = request.params ?? {};
    const context: McpRequestContext = {
      transport: channel.transport,
      protocolVersion: envelope.protocolVersion,
      principal: channel.principal,
      clientCapabilities: envelope.clientCapabilities,
      logLevel: envelope.logLevel,
      send: channel.send && this.requestStream(channel.send, envelope),
      askClient: mrtr ? round.ask : notAvailable(request.method),
      cancellationScope: channel.cancellationScope,
      onInsufficientScope: channel.onInsufficientScope,
      traceHeaders: channel.traceHeaders,
      caller: channel.caller,
    };
    const dispatch = () =>
      this.dispatcher.dispatchRequest({ jsonrpc: '2.0', id: request.id, method: request.method, params }, context, handler);
    const answer = mrtr ? await this.clientInput.runWith(round, dispatch) : await dispatch();
    round.assertAnswersValid();
    if (round.asked.size > 0 && input)
      return {
        status: 200,
        response: successResponse(request.id, this.inputRequiredResult(request, round, input.round, channel.principal)),
      };
    if (round.missing && !(answer && 'result' in answer)) throw Rev20260728Refusals.missingCapability(round.missing);
    if (!answer) return undefined;
    if ('error' in answer) return this.failure(request, answer.error);
    return { status: 200, response: successResponse(request.id, this.shapeResult(request.method, answer.result, channel.principal)) };
  }

  /**
   * A job tool called with the tasks extension, the shared handler having looked it up and checked the caller's
   * scopes: `CreateTaskResult`, or first the `input_required` rounds. `args` are the (aliased) call's.
   */
  async callAsTask(
    call: McpRev20260728Call,
    channel: McpRev20260728Channel,
    tool: McpToolDefinition,
    input: RoundInput,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { request, envelope } = call;
    const outcome = await this.tasks.call({
      id: request.id,
      tool,
      args,
      envelope,
      principal: channel.principal,
      transport: channel.transport,
      known: input.known,
      responses: input.responses,
    });
    switch (outcome.kind) {
      case 'input':
        outcome.round.assertAnswersValid();
        return this.inputRequiredResult(request, outcome.round, input.round, channel.principal);
      case 'task':
        return outcome.result;
      case 'complete':
        return outcome.result as unknown as Record<string, unknown>;
    }
  }

  /** The answers a retry carries: a verified `requestState` and `inputResponses` (an object); anything else is -32602. */
  private roundInput(request: JsonRpcRequest, principal: McpPrincipal | undefined): RoundInput {
    const params = request.params ?? {};
    if ('inputResponses' in params && !isPlainObject(params.inputResponses)) {
      throw new McpProtocolError(
        JsonRpcErrorCode.INVALID_PARAMS,
        'Invalid params: inputResponses must be an object mapping input request keys to results',
      );
    }
    const responses = (params.inputResponses as Record<string, unknown> | undefined) ?? {};
    if (params.requestState === undefined) return { known: {}, responses, round: 1 };
    const state = this.states.open(params.requestState);
    if (
      !state ||
      state.owner !== ownerOf(principal) ||
      state.method !== request.method ||
      state.digest !== digestOf(this.boundParams(request))
    ) {
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: invalid or expired requestState');
    }
    return { known: state.answers, responses, round: state.round + 1 };
  }

  /** `input_required`: the open input requests, and a fresh `requestState` carrying every answer used so far. */
  private inputRequiredResult(
    request: JsonRpcRequest,
    round: McpInputRound,
    roundNumber: number,
    principal: McpPrincipal | undefined,
  ): Record<string, unknown> {
    const requestState = this.states.seal({
      owner: ownerOf(principal),
      method: request.method,
      digest: digestOf(this.boundParams(request)),
      round: roundNumber,
      answers: round.used,
    });
    return {
      resultType: 'input_required',
      inputRequests: Object.fromEntries(round.asked),
      requestState,
      _meta: { [META.serverInfo]: this.serverInfo },
    };
  }

  /** The params a `requestState` is bound to: the target and its arguments, nothing a retry may change. */
  private boundParams(request: JsonRpcRequest): unknown {
    const params = request.params ?? {};
    return request.method === 'resources/read' ? { uri: params.uri } : { name: params.name, arguments: params.arguments ?? {} };
  }

  /** SEP-2243 custom headers: each `x-mcp-header` argument of the tool must be mirrored (HTTP only). */
  checkParamHeaders(tool: McpToolDefinition, params: Record<string, unknown>, channel: McpRev20260728Channel): void {
    const declared = this.paramHeaders.get(tool.name);
    if (!declared || !channel.header) return;
    const mismatch = paramHeaderMismatch(declared, params.arguments, channel.header);
    if (mismatch) throw Rev20260728Refusals.headerMismatch('Mcp-Param', mismatch);
  }

  /** Logs only for requests that asked for them (`_meta` logLevel); never a request on a response stream. */
  private requestStream(send: (message: JsonRpcMessage) => void, envelope: McpRev20260728Envelope): (message: JsonRpcMessage) => void {
    return (message) => {
      if (!('method' in message) || 'id' in message) return;
      if (message.method === 'notifications/message' && envelope.logLevel === undefined) return;
      send(message);
    };
  }

  /** An error answer: a missing resource is -32602 with its URI (-32002 is gone); the status follows the code. */
  private failure(request: JsonRpcRequest, error: JsonRpcErrorObject): McpRev20260728Answer {
    let shaped = error;
    if (error.code === JsonRpcErrorCode.RESOURCE_NOT_FOUND) {
      const uri = isPlainObject(error.data) && typeof error.data.uri === 'string' ? error.data.uri : request.params?.uri;
      shaped = { code: JsonRpcErrorCode.INVALID_PARAMS, message: 'Resource not found', data: { uri } };
    }
    return { status: rev20260728HttpStatus(shaped), response: errorResponse(request.id, shaped) };
  }

  /** `private` where the answer may depend on who asks (scoped tool lists, resource contents with a caller). */
  private cacheScope(method: string, principal: McpPrincipal | undefined): 'public' | 'private' {
    if (!principal) return 'public';
    if (method === 'tools/list') return this.scopedTools || this.registry.listsPerCaller ? 'private' : 'public';
    if (method === 'resources/read') return 'private';
    // Skill providers answer per tenant.
    if (method.startsWith('skills/') || method === 'resources/directory/read') return 'private';
    // A scoped upstream's prompts, resources and templates are listed only to callers holding its scopes.
    return this.options.sources.upstreams.some((upstream) => (upstream.scopes?.length ?? 0) > 0) ? 'private' : 'public';
  }
}

/** What a request carries from earlier input rounds: verified answers, new responses, and its round number. */
interface RoundInput {
  readonly known: Record<string, unknown>;
  readonly responses: Record<string, unknown>;
  readonly round: number;
}

/**
 * This era's side of one tools/call, made per request (it replaces the handler object the era made before): the
 * shared handler calls `handle`, then `check` and `run` once it has found the tool for this caller.
 */
class Rev20260728ToolCall implements McpMethodHandler, McpToolCallHook {
  readonly method = 'tools/call';
  /** Decided in `check` (a tool that requires the extension from a request without it is refused there). */
  private asTask = false;

  constructor(
    private readonly era: McpRev20260728Responder,
    private readonly call: McpRev20260728Call,
    private readonly channel: McpRev20260728Channel,
    private readonly input: RoundInput,
  ) {}

  handle(call: McpCall): Promise<Record<string, unknown>> {
    return this.era.tools.call(call, this);
  }

  check(tool: McpToolDefinition, call: McpCall): void {
    this.era.checkParamHeaders(tool, call.params, this.channel);
    this.asTask = this.era.tasks.runsAsTask(tool, this.call.envelope);
  }

  run(tool: McpToolDefinition, call: McpCall): Promise<Record<string, unknown>> | undefined {
    if (!this.asTask) return undefined;
    return this.era.callAsTask(this.call, this.channel, tool, this.input, (call.params.arguments ?? {}) as Record<string, unknown>);
  }
}

/** Methods of this era alone, served by its own handlers (see `ownMethod`). */
const OWN_METHODS: ReadonlySet<string> = new Set(['server/discover', 'tasks/get', 'tasks/update', 'tasks/cancel']);

/** Requests other than tools/call, prompts/get and resources/read cannot ask the client anything (2026-07-28). */
function notAvailable(method: string): (clientMethod: string) => Promise<never> {
  return async (clientMethod) => {
    throw new McpToolError(
      'CLIENT_UNREACHABLE',
      `${clientMethod} is not available during ${method}: only tools/call, prompts/get and resources/read may ask the client for input`,
    );
  };
}
