import type { TextMapGetter } from '@opentelemetry/api';

/** A W3C trace context carrier: `params._meta` of a request, or the trace headers its transport received. */
export type McpTraceCarrier = Readonly<Record<string, unknown>>;

/** Reads `traceparent`, `tracestate`, `baggage` (unprefixed `_meta` keys, SEP-414; lower-case headers), strings only. */
export const MCP_TRACE_CARRIER_GETTER: TextMapGetter<McpTraceCarrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** `params._meta` when it carries a `traceparent`: the MCP-level context, which wins over the transport's. */
export function metaCarrierOf(params: Record<string, unknown> | undefined): McpTraceCarrier | undefined {
  const meta = params?._meta;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  return typeof (meta as McpTraceCarrier).traceparent === 'string' ? (meta as McpTraceCarrier) : undefined;
}
