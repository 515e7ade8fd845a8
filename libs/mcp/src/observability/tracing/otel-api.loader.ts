import type * as OtelApi from '@opentelemetry/api';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { importOptionalPeer } from '../../core/optional-peer.js';
import { McpTracingMessages } from './tracing.messages.js';

/** The parts of `@opentelemetry/api` tracing uses. */
export type McpOtelApi = Pick<
  typeof OtelApi,
  'trace' | 'context' | 'propagation' | 'SpanKind' | 'SpanStatusCode' | 'isSpanContextValid' | 'ProxyTracerProvider'
>;

/** `@opentelemetry/api`, imported when tracing is on (optional peer): undefined if absent, a boot error if `required`. */
export async function loadOtelApi(
  required: boolean,
  importer: () => Promise<McpOtelApi> = () => import('@opentelemetry/api'),
): Promise<McpOtelApi | undefined> {
  const api = await importOptionalPeer(importer);
  if (!api && required) throw new McpConfigurationError(McpTracingMessages.apiMissing());
  if (!api) return undefined;
  const { trace, context, propagation, SpanKind, SpanStatusCode, isSpanContextValid, ProxyTracerProvider } = api;
  return { trace, context, propagation, SpanKind, SpanStatusCode, isSpanContextValid, ProxyTracerProvider };
}
