import type { ModuleRef } from '@nestjs/core';
import { NOOP_MCP_METRICS, type McpMetrics } from '../../core/mcp-metrics.interface.js';
import { MCP_JOB_QUEUE, type McpJobQueue } from '../../jobs/job-queue.interface.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpMetricFamilies } from './metric-families.js';
import { McpPrometheusMetrics } from './mcp-prometheus.metrics.js';
import { loadPromClient } from './prom-client.loader.js';

/** `MCP_METRICS`: prom-client metrics with the `observability.metrics` option (prom-client loaded only then), else the no-op. */
export async function createMcpMetrics(
  options: McpResolvedOptions,
  moduleRef: ModuleRef,
  families: McpMetricFamilies,
): Promise<McpMetrics> {
  if (!options.observability.metrics.enabled) return NOOP_MCP_METRICS;
  const promClient = await loadPromClient();
  // This server's own queue (strict: another server of the app has one too).
  return new McpPrometheusMetrics({ options, promClient, families, jobQueue: () => moduleRef.get<McpJobQueue>(MCP_JOB_QUEUE) });
}
