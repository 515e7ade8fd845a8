/** The texts of the metrics room's boot errors. */
export const McpMetricsMessages = {
  promClientMissing: () => 'McpModule option "metrics" needs the prom-client package: npm i prom-client (or remove the metrics option).',
  alreadyRegistered: (name: string) =>
    `McpModule option "metrics": the registry already holds a metric named ${name} (another McpModule in this process?). ` +
    'Give each app its own registry: metrics: { registry: new Registry() } (import { Registry } from "prom-client").',
  sameServerName: (name: string, server: string) =>
    `McpModule option "metrics": two servers named "${server}" write ${name} to one registry, so their series would merge. ` +
    'Give the servers different names, or each its own registry: metrics: { registry: new Registry() }.',
  labelsDiffer: (name: string, server: string) =>
    `McpModule option "metrics" of "${server}": the servers sharing its registry must agree on metrics.tenantLabel (${name} has one set of labels).`,
} as const;
