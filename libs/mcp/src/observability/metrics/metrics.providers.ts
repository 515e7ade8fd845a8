import type { Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MCP_METRICS } from '../../core/mcp-metrics.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import { McpMetricsEndpoint } from './metrics.endpoint.js';
import { createMcpMetrics } from './metrics.factory.js';
import { McpMetricFamilies } from './metric-families.js';

/** The metrics behind the core port `MCP_METRICS` (the no-op without the `observability.metrics` option) and their endpoint. */
export const MCP_METRICS_PROVIDERS: Provider[] = [
  { provide: MCP_METRICS, useFactory: createMcpMetrics, inject: [MCP_RESOLVED_OPTIONS, ModuleRef, McpMetricFamilies] },
  McpMetricsEndpoint,
];
