import type { McpTracingOptions } from '../mcp-module-options.interface.js';
import type { McpMetricsOptions, McpMetricsRegistry } from '../mcp-metrics-options.interface.js';
import { group, invalidOption, option } from '../option.builder.js';
import { checked, flag, normalizePath } from '../option.values.js';
import type { McpResolvedPaths } from './endpoint.options.js';

const isRegistry = (registry: unknown) =>
  registry !== null &&
  typeof registry === 'object' &&
  ['metrics', 'registerMetric', 'getSingleMetric', 'removeSingleMetric'].every(
    (method) => typeof Reflect.get(registry, method) === 'function',
  );

/**
 * `observability.metrics`: on once given (unless `enabled: false`). Its `path` may not take a route of the endpoint (the MCP
 * paths, anything under `<path>/`, the explorer page, the `/.well-known/` documents), and a `registry` must be a
 * prom-client `Registry` (undefined: prom-client's global `register`).
 */
export const MCP_METRICS_OPTIONS = group<McpMetricsOptions, McpResolvedPaths>()(
  {
    enabled: flag(true),
    path: option<string, string | undefined, McpResolvedPaths>((given, at, paths) => {
      if (given === undefined) return undefined;
      const path = normalizePath(given, at);
      const exact = [paths.path, paths.messagesPath, paths.ssePath, paths.explorerPath].filter((route) => route !== false);
      const taken = exact.find((route) => route === path) ?? [paths.path, '/.well-known'].find((route) => path.startsWith(`${route}/`));
      if (taken !== undefined) throw invalidOption(at, `must not collide with the MCP route ${taken} (got ${path}); try "/metrics"`);
      return path;
    }),
    registry: checked<McpMetricsRegistry>(isRegistry, 'must be a prom-client Registry (new Registry())'),
    tenantLabel: flag(false),
  },
  { object: 'such as { path: "/metrics" }', absent: { enabled: false, tenantLabel: false } },
);

/** `observability.tracing`: on unless `enabled: false`; `enabled: true` makes a missing `@opentelemetry/api` a boot error. */
export const MCP_TRACING_OPTIONS = group<McpTracingOptions>()(
  { enabled: flag(undefined) },
  {
    object: 'such as { enabled: true }',
    /** `enabled`: trace when `@opentelemetry/api` loads; `required`: its absence fails the boot (`enabled: true` given). */
    finish: ({ enabled }) => ({ enabled: enabled !== false, required: enabled === true }),
  },
);
