import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { MCP_METRICS, type McpMetrics } from '../../core/mcp-metrics.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { McpPrometheusMetrics } from './mcp-prometheus.metrics.js';

/** Serves the registry at `observability.metrics.path`, without MCP auth, Origin or Host checks: keep it inside the network. */
@Injectable()
export class McpMetricsEndpoint implements OnModuleInit {
  private readonly logger = new Logger('McpModule');

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    @Inject(MCP_METRICS) private readonly metrics: McpMetrics,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const path = this.options.observability.metrics.path;
    const metrics = this.metrics;
    if (path === undefined || !(metrics instanceof McpPrometheusMetrics)) return;
    const adapter = this.adapterHost?.httpAdapter;
    // An application context (stdio) has no HTTP server: nothing to serve on.
    if (!adapter) return;
    adapter.get(path, (_request: unknown, response: unknown) => {
      metrics.scrape().then(
        ({ contentType, body }) => {
          adapter.setHeader(response, 'Content-Type', contentType);
          adapter.setHeader(response, 'Cache-Control', 'no-store');
          adapter.reply(response, body, 200);
        },
        (error: unknown) => {
          this.logger.error(`Metrics scrape failed: ${error instanceof Error ? error.message : String(error)}`);
          adapter.reply(response, 'metrics unavailable\n', 500);
        },
      );
    });
  }
}
