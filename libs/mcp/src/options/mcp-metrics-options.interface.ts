/**
 * The prom-client registry the metrics go into: prom-client's `Registry`. Only the members used here are named, so
 * this package's types need no prom-client.
 * @publicApi
 */
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
  /**
   * Serve the registry at this path (GET, Prometheus text format) without the MCP authentication: scrape it from
   * inside your network and keep the path off the public proxy. Unset: nothing is served (expose the registry
   * yourself). Must not collide with the MCP paths.
   */
  path?: string;
  /**
   * The registry the metrics are registered in (prom-client's global `register`); one per app in one process. The
   * servers of one app may share one: each writes its series under its own `server` label (their names must differ,
   * and so must only one of them serve `path`).
   */
  registry?: McpMetricsRegistry;
  /** Add a `tenant` label to the request and tool metrics (false: a series per tenant can be very many). */
  tenantLabel?: boolean;
}
