/** A prom-client `Registry`, named by the members used here (so these types need no prom-client). @publicApi */
export interface McpMetricsRegistry {
  readonly contentType: string;
  metrics(): Promise<string>;
  getSingleMetric(name: string): unknown;
  removeSingleMetric(name: string): void;
  registerMetric(metric: never): void;
}

/**
 * Prometheus metrics through `prom-client` (an optional peer): requests, tool calls, errors and durations,
 * sessions, streams, jobs and upstream calls (`mcp_*`, listed in the observability guide).
 * @publicApi
 * @example McpModule.forRoot({ name: 'weather', version: '1.0.0', observability: { metrics: { path: '/metrics' } } })
 */
export interface McpMetricsOptions {
  /** Collect the metrics (true once `observability.metrics` is given; `false` turns them off). */
  enabled?: boolean;
  /** Serve the registry here (GET, no MCP authentication: keep it off the public proxy); unset, expose it yourself. */
  path?: string;
  /** The registry (prom-client's global `register`); an app's servers may share one, each under its `server` label. */
  registry?: McpMetricsRegistry;
  /** Add a `tenant` label to the request and tool metrics (false: a series per tenant can be very many). */
  tenantLabel?: boolean;
}
