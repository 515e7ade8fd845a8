import type { Provider } from '@nestjs/common';
import { McpHealthIndicator } from './health/mcp.health-indicator.js';
import { MCP_METRICS_PROVIDERS } from './metrics/metrics.providers.js';
import { MCP_TRACING_PROVIDERS } from './tracing/tracing.providers.js';

/** Spans (behind the core port `MCP_TRACER`), Prometheus metrics (behind `MCP_METRICS`), the terminus health indicator. */
export const MCP_OBSERVABILITY_PROVIDERS: Provider[] = [...MCP_TRACING_PROVIDERS, ...MCP_METRICS_PROVIDERS, McpHealthIndicator];
