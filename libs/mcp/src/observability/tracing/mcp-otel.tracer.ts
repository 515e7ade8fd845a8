import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Attributes, Context, Link, Span, Tracer } from '@opentelemetry/api';
import { McpControlFlowSignal } from '../../core/control-flow.signal.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../../core/json-rpc/json-rpc.types.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpTracedToolCall, McpTracer } from '../../core/mcp-tracer.interface.js';
import type { McpCallToolResult } from '../../core/results/content.types.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { loadOtelApi, type McpOtelApi } from './otel-api.loader.js';
import { EXECUTE_TOOL, MCP_SPAN_ATTRIBUTES as A, OTHER, TOOL_ERROR } from './mcp-span.attributes.js';
import { MCP_TRACE_CARRIER_GETTER, metaCarrierOf } from './trace-carrier.js';

/** The instrumentation scope of every span. */
const TRACER_NAME = '@nest-mcp/core';
/** A span-name target must look like a tool or prompt name: the client's string, so kept low-cardinality and short. */
const TARGET_PATTERN = /^[A-Za-z0-9_.\-/]{1,128}$/;
/** Methods whose span is named after their target (`tools/call get_weather`) and the attribute that holds it. */
const TARGET_ATTRIBUTE: Readonly<Record<string, string>> = { 'tools/call': A.TOOL_NAME, 'prompts/get': A.PROMPT_NAME };
const RESOURCE_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/** The {@link McpTracer} over `@opentelemetry/api`; off, or without the package or an SDK, it leaves the request path untouched. */
@Injectable()
export class McpOtelTracer implements McpTracer, OnModuleInit {
  private api?: McpOtelApi;
  private tracer?: Tracer;
  /** What the global provider delegates to while no SDK is registered (the API's no-op provider). */
  private noopDelegate?: unknown;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions) {}

  async onModuleInit(): Promise<void> {
    if (!this.options.observability.tracing.enabled) return;
    this.api = await loadOtelApi(this.options.observability.tracing.required);
    // A proxy: an SDK registered after boot still receives the spans.
    this.tracer = this.api?.trace.getTracer(TRACER_NAME);
    this.noopDelegate = this.api && new this.api.ProxyTracerProvider().getDelegate();
  }

  /** Whether an SDK is registered now (per request): without one, building no-op spans costs a tenth of a call. */
  private recording(api: McpOtelApi): boolean {
    const provider = api.trace.getTracerProvider() as { getDelegate?: () => unknown };
    return provider.getDelegate?.() !== this.noopDelegate;
  }

  // Not `async` itself: untraced, the answer's own promise is returned as it is (no extra promise and tick per call).
  request(
    request: JsonRpcRequest,
    context: McpRequestContext,
    served: boolean,
    answer: () => Promise<JsonRpcResponse | undefined>,
  ): Promise<JsonRpcResponse | undefined> {
    const { api, tracer } = this;
    if (!api || !tracer || !this.recording(api)) return answer();
    return this.tracedRequest(api, tracer, request, context, served, answer);
  }

  private async tracedRequest(
    api: McpOtelApi,
    tracer: Tracer,
    request: JsonRpcRequest,
    context: McpRequestContext,
    served: boolean,
    answer: () => Promise<JsonRpcResponse | undefined>,
  ): Promise<JsonRpcResponse | undefined> {
    const { parent, links } = this.parentOf(api, request, context);
    const attributes = requestAttributes(request, context);
    const target = TARGET_ATTRIBUTE[request.method] && attributes[TARGET_ATTRIBUTE[request.method]];
    // An unknown method is the client's string: it stays out of the span name (cardinality), as HTTP's `_OTHER` does.
    const name = !served ? OTHER : target ? `${request.method} ${String(target)}` : request.method;
    const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes, links }, parent);
    try {
      const response = await api.context.with(api.trace.setSpan(parent, span), answer);
      if (response && 'error' in response) {
        const code = String(response.error.code);
        span.setAttributes({ [A.ERROR_TYPE]: code, [A.RPC_RESPONSE_STATUS_CODE]: code });
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: response.error.message });
      } else if (response && (response.result as { isError?: unknown }).isError === true) {
        span.setAttribute(A.ERROR_TYPE, TOOL_ERROR);
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: envelopeCodeOf(response.result) });
      }
      return response;
    } catch (error) {
      this.fail(api, span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  tool(call: McpTracedToolCall, run: () => Promise<McpCallToolResult>): Promise<McpCallToolResult> {
    const { api, tracer } = this;
    if (!api || !tracer || !this.recording(api)) return run();
    return this.tracedTool(api, tracer, call, run);
  }

  private async tracedTool(
    api: McpOtelApi,
    tracer: Tracer,
    call: McpTracedToolCall,
    run: () => Promise<McpCallToolResult>,
  ): Promise<McpCallToolResult> {
    const active = api.context.active();
    const attributes: Attributes = { [A.OPERATION_NAME]: EXECUTE_TOOL, [A.TOOL_NAME]: call.toolName };
    if (call.sessionId !== undefined) attributes[A.SESSION_ID] = call.sessionId;
    if (call.upstream !== undefined) attributes[A.UPSTREAM_NAME] = call.upstream;
    const span = tracer.startSpan(`${EXECUTE_TOOL} ${call.toolName}`, { kind: api.SpanKind.INTERNAL, attributes }, active);
    try {
      const result = await api.context.with(api.trace.setSpan(active, span), run);
      if (result.isError === true) {
        const code = envelopeCodeOf(result);
        span.setAttribute(A.ERROR_TYPE, code ?? TOOL_ERROR);
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: code });
      }
      return result;
    } catch (error) {
      // Steering (a 2026-07-28 input round), not a failure: the round decides the answer.
      if (!(error instanceof McpControlFlowSignal)) this.fail(api, span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * The remote parent: `params._meta` first (the conventions: MCP context is independent of the transport's), then
   * the transport's trace headers, else the ambient context. A transport context set aside is kept as a link.
   */
  private parentOf(api: McpOtelApi, request: JsonRpcRequest, context: McpRequestContext): { parent: Context; links: Link[] } {
    const active = api.context.active();
    const fromHeaders = context.traceHeaders && api.propagation.extract(active, context.traceHeaders, MCP_TRACE_CARRIER_GETTER);
    const meta = metaCarrierOf(request.params);
    const fromMeta = meta && api.propagation.extract(active, meta, MCP_TRACE_CARRIER_GETTER);
    const chosen = fromMeta && api.trace.getSpanContext(fromMeta);
    if (!fromMeta || !chosen || !api.isSpanContextValid(chosen)) return { parent: fromHeaders ?? active, links: [] };
    const transport = api.trace.getSpanContext(fromHeaders ?? active);
    const distinct = transport && api.isSpanContextValid(transport) && transport.spanId !== chosen.spanId;
    return { parent: fromMeta, links: distinct ? [{ context: transport }] : [] };
  }

  private fail(api: McpOtelApi, span: Span, error: unknown): void {
    const type = error instanceof McpProtocolError ? String(error.code) : error instanceof Error ? error.name : OTHER;
    span.setAttribute(A.ERROR_TYPE, type);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
  }
}

/** The request span's attributes, known before it runs (so samplers see them). */
function requestAttributes(request: JsonRpcRequest, context: McpRequestContext): Attributes {
  const attributes: Attributes = {
    [A.METHOD_NAME]: request.method.slice(0, 128),
    [A.JSONRPC_REQUEST_ID]: String(request.id),
    [A.PROTOCOL_VERSION]: context.protocolVersion,
    [A.NETWORK_TRANSPORT]: context.transport === 'stdio' ? 'pipe' : 'tcp',
  };
  if (context.transport !== 'stdio') attributes[A.NETWORK_PROTOCOL_NAME] = 'http';
  if (context.sessionId !== undefined) attributes[A.SESSION_ID] = context.sessionId;
  const name = request.params?.name;
  const targetAttribute = TARGET_ATTRIBUTE[request.method];
  if (targetAttribute && typeof name === 'string' && TARGET_PATTERN.test(name)) attributes[targetAttribute] = name;
  if (request.method === 'tools/call') attributes[A.OPERATION_NAME] = EXECUTE_TOOL;
  const uri = request.params?.uri;
  if (RESOURCE_METHODS.has(request.method) && typeof uri === 'string') attributes[A.RESOURCE_URI] = uri.slice(0, 2048);
  return attributes;
}

/** The error code of an error envelope (`VALIDATION_ERROR`, a domain code), when the result carries one. */
function envelopeCodeOf(result: unknown): string | undefined {
  const code = (result as { structuredContent?: { error?: { code?: unknown } } }).structuredContent?.error?.code;
  return typeof code === 'string' ? code.slice(0, 64) : undefined;
}
