import type { Provider } from '@nestjs/common';
import { MCP_TRACER } from '../../core/mcp-tracer.interface.js';
import { McpOtelTracer } from './mcp-otel.tracer.js';

/** Tracing's providers: the OpenTelemetry tracer, behind the core port the dispatcher and call pipeline inject. */
export const MCP_TRACING_PROVIDERS: Provider[] = [McpOtelTracer, { provide: MCP_TRACER, useExisting: McpOtelTracer }];
