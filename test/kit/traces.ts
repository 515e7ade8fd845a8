import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { eventually } from './eventually.js';

/** Spans the process ends, kept in memory: an OpenTelemetry SDK registered globally, as an application registers one. */
export interface SpanCapture {
  /** Every span ended since the last {@link reset}. */
  spans(): ReadableSpan[];
  /** Waits until a span named `name` has ended and returns it. */
  span(name: string, timeoutMs?: number): Promise<ReadableSpan>;
  reset(): void;
  /** Unregisters the provider, context manager and propagator (the API goes back to its no-ops). */
  stop(): Promise<void>;
}

/** Registers a tracer provider with an in-memory exporter, the AsyncLocalStorage context manager and W3C propagation. */
export function captureSpans(): SpanCapture {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const spans = () => exporter.getFinishedSpans();
  return {
    spans,
    async span(name, timeoutMs = 5_000) {
      await eventually(() => spans().some((span) => span.name === name), timeoutMs, `a span named "${name}"`);
      return spans().find((span) => span.name === name)!;
    },
    reset: () => exporter.reset(),
    async stop() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** A W3C `traceparent` header value for a sampled remote parent. */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
