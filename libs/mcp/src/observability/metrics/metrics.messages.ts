import { bootErrors } from '../../core/errors/boot-errors.js';

/** The metrics room's boot errors (see `docs/errors.md`). */
export const McpMetricsMessages = bootErrors({
  promClientMissing: {
    code: 'MCP_ERR_METRICS_PROM_CLIENT_MISSING',
    message: () =>
      'McpModule option "observability.metrics" needs the prom-client package: npm i prom-client (or remove the observability.metrics option).',
    fix: '`npm i prom-client`.',
  },
  alreadyRegistered: {
    code: 'MCP_ERR_METRICS_ALREADY_REGISTERED',
    message: (name: string) =>
      `McpModule option "observability.metrics": the registry already holds a metric named ${name} (another McpModule in this process?). ` +
      'Give each app its own registry: observability: { metrics: { registry: new Registry() } } (import { Registry } from "prom-client").',
    fix: '`observability: { metrics: { registry: new Registry() } }` per app.',
  },
  sameServerName: {
    code: 'MCP_ERR_METRICS_SERVER_NAME_SHARED',
    message: (name: string, server: string) =>
      `McpModule option "observability.metrics": two servers named "${server}" write ${name} to one registry, so their series would merge. ` +
      'Give the servers different names, or each its own registry: observability: { metrics: { registry: new Registry() } }.',
    fix: 'Name the servers differently, or give each its own registry.',
  },
  labelsDiffer: {
    code: 'MCP_ERR_METRICS_LABELS_DIFFER',
    message: (name: string, server: string) =>
      `McpModule option "observability.metrics" of "${server}": the servers sharing its registry must agree on observability.metrics.tenantLabel (${name} has one set of labels).`,
    fix: 'Set the same `observability.metrics.tenantLabel` on every server sharing the registry.',
  },
});
