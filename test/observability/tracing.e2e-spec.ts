import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { McpArgs, McpTool, McpToolError } from '@nest-mcp/core';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { callTool, openSession, post, responseOf, rpc, sessionHeaders } from '../kit/http.js';
import { captureSpans, traceparent, type SpanCapture } from '../kit/traces.js';
import { call2026 } from '../rev-2026-07-28/support/requests.js';
import { endpointOf, openSse } from '../kit/sse.js';

class CityDto {
  @IsString()
  city!: string;
}

@Injectable()
class TracedTools {
  @McpTool({ name: 'get_weather', description: 'The weather in a city.' })
  getWeather(@McpArgs() args: CityDto) {
    return { city: args.city, temperatureC: 21 };
  }

  @McpTool({ name: 'flaky_upstream', description: 'Always fails like an unreachable upstream.' })
  flaky(): never {
    throw new McpToolError('UPSTREAM_ERROR', 'the upstream did not answer');
  }
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER_SPAN_ID = '00f067aa0ba902b7';
const META_SPAN_ID = 'b7ad6b7169203331';

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('traces (OpenTelemetry, in-memory exporter)', () => {
  let capture: SpanCapture;
  let server: RunningApp;

  beforeAll(async () => {
    capture = captureSpans();
    server = await listenMcp({ name: 'traced', version: '1.0.0' }, [TracedTools]);
  });
  afterAll(async () => {
    await server?.close();
    await capture?.stop();
  });
  beforeEach(() => capture.reset());

  it('a tools/call with a traceparent header: a SERVER request span under the header, an INTERNAL tool span under it', async () => {
    const { sessionId } = await openSession(server.url);
    capture.reset();
    const answer = await post(server.url, callTool(7, 'get_weather', { city: 'Oslo' }), {
      ...sessionHeaders(sessionId),
      traceparent: traceparent(TRACE_ID, HEADER_SPAN_ID),
      tracestate: 'rojo=00f067aa0ba902b7',
    });
    expect(responseOf(answer).result.isError).toBe(false);

    const request = await capture.span('tools/call get_weather');
    const tool = await capture.span('execute_tool get_weather');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(request)).toBe(HEADER_SPAN_ID);
    expect(request.spanContext().traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    expect(request.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '7',
      'mcp.session.id': sessionId,
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(request.status.code).toBe(SpanStatusCode.UNSET);

    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(tool)).toBe(request.spanContext().spanId);
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'mcp.session.id': sessionId,
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('params._meta.traceparent (2026-07-28, no session) is the parent; a traceparent header beside it becomes a link', async () => {
    const answer = await call2026(
      server.url,
      'w-1',
      'tools/call',
      { name: 'get_weather', arguments: { city: 'Lima' } },
      { meta: { traceparent: traceparent(TRACE_ID, META_SPAN_ID) }, headers: { traceparent: traceparent(TRACE_ID, HEADER_SPAN_ID) } },
    );
    expect(answer.status).toBe(200);

    const request = await capture.span('tools/call get_weather');
    const tool = await capture.span('execute_tool get_weather');
    expect(request.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(request)).toBe(META_SPAN_ID);
    expect(request.links.map((link) => link.context.spanId)).toEqual([HEADER_SPAN_ID]);
    expect(request.attributes['mcp.protocol.version']).toBe('2026-07-28');
    expect(request.attributes['jsonrpc.request.id']).toBe('w-1');
    expect(request.attributes).not.toHaveProperty('mcp.session.id');
    expect(tool.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(tool)).toBe(request.spanContext().spanId);
  });

  it('HTTP+SSE (2024-11-05): the messages POST carries the traceparent; the span has the session and the tool span', async () => {
    const sse = await openSse(`${server.base}/sse`);
    try {
      const messages = new URL(endpointOf(sse.firstEvent), server.base).toString();
      const sessionId = new URL(messages).searchParams.get('sessionId');
      const accepted = await post(messages, callTool(3, 'get_weather', { city: 'Quito' }), {
        traceparent: traceparent(TRACE_ID, HEADER_SPAN_ID),
      });
      expect(accepted.status).toBe(202);
      const request = await capture.span('tools/call get_weather');
      const tool = await capture.span('execute_tool get_weather');
      expect(parentOf(request)).toBe(HEADER_SPAN_ID);
      expect(request.attributes['mcp.session.id']).toBe(sessionId);
      expect(request.attributes['mcp.protocol.version']).toBe('2024-11-05');
      expect(parentOf(tool)).toBe(request.spanContext().spanId);
    } finally {
      sse.close();
    }
  });

  it('a failing tool: status ERROR, error.type tool_error on the request span and the envelope code on the tool span', async () => {
    const answer = await post(server.url, callTool(8, 'flaky_upstream'), { traceparent: traceparent(TRACE_ID, HEADER_SPAN_ID) });
    expect(responseOf(answer).result.isError).toBe(true);

    const request = await capture.span('tools/call flaky_upstream');
    const tool = await capture.span('execute_tool flaky_upstream');
    expect(request.status.code).toBe(SpanStatusCode.ERROR);
    expect(request.attributes['error.type']).toBe('tool_error');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'UPSTREAM_ERROR' });
    expect(tool.attributes['error.type']).toBe('UPSTREAM_ERROR');
    expect(parentOf(tool)).toBe(request.spanContext().spanId);
  });

  it('a validation failure is a tool error too: VALIDATION_ERROR on the tool span', async () => {
    await post(server.url, callTool(9, 'get_weather', { city: 42 }));
    const tool = await capture.span('execute_tool get_weather');
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool.attributes['error.type']).toBe('VALIDATION_ERROR');
  });

  it('a JSON-RPC error: error.type and rpc.response.status_code are its code, the status message its message', async () => {
    const answer = await post(server.url, rpc(10, 'tools/call', { name: 'no_such_tool', arguments: {} }));
    const error = responseOf(answer).error;
    const request = await capture.span('tools/call no_such_tool');
    expect(request.attributes['error.type']).toBe(String(error.code));
    expect(request.attributes['rpc.response.status_code']).toBe(String(error.code));
    expect(request.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
    expect(capture.spans().some((span) => span.name.startsWith('execute_tool'))).toBe(false);
  });

  it('an unknown method keeps the client string out of the span name (_OTHER) and answers -32601', async () => {
    await post(server.url, rpc(11, 'made/up-method'));
    const request = await capture.span('_OTHER');
    expect(request.attributes['mcp.method.name']).toBe('made/up-method');
    expect(request.attributes['error.type']).toBe('-32601');
  });

  it('no trace context anywhere: a root span of its own trace', async () => {
    await post(server.url, rpc(12, 'tools/list'));
    const request = await capture.span('tools/list');
    expect(request.parentSpanContext).toBeUndefined();
    expect(request.spanContext().traceId).not.toBe(TRACE_ID);
  });
});

describe('traces off', () => {
  it('tracing.enabled false: no span, even with an SDK registered', async () => {
    const capture = captureSpans();
    const server = await listenMcp({ name: 'untraced', version: '1.0.0', observability: { tracing: { enabled: false } } }, [TracedTools]);
    try {
      const answer = await post(server.url, callTool(1, 'get_weather', { city: 'Oslo' }), {
        traceparent: traceparent(TRACE_ID, HEADER_SPAN_ID),
      });
      expect(responseOf(answer).result.isError).toBe(false);
      expect(capture.spans()).toEqual([]);
    } finally {
      await server.close();
      await capture.stop();
    }
  });

  it('with @opentelemetry/api but no SDK registered, calls are served as usual (the API no-op tracer)', async () => {
    const server = await listenMcp({ name: 'noop-traced', version: '1.0.0', observability: { tracing: { enabled: true } } }, [TracedTools]);
    try {
      const answer = await post(server.url, callTool(1, 'get_weather', { city: 'Oslo' }), {
        traceparent: traceparent(TRACE_ID, HEADER_SPAN_ID),
      });
      expect(responseOf(answer).result.structuredContent).toEqual({ status: 'success', data: { city: 'Oslo', temperatureC: 21 } });
    } finally {
      await server.close();
    }
  });
});
