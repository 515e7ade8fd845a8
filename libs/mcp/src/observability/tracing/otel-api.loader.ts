import type * as OtelApi from '@opentelemetry/api';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
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
  try {
    const { trace, context, propagation, SpanKind, SpanStatusCode, isSpanContextValid, ProxyTracerProvider } = await importer();
    return { trace, context, propagation, SpanKind, SpanStatusCode, isSpanContextValid, ProxyTracerProvider };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    if (required) throw new McpConfigurationError(McpTracingMessages.apiMissing());
    return undefined;
  }
}
