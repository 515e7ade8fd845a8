/** The texts of the metrics room's boot errors. */
export const McpMetricsMessages = {
  promClientMissing: () => 'McpModule option "metrics" needs the prom-client package: npm i prom-client (or remove the metrics option).',
  alreadyRegistered: (name: string) =>
    `McpModule option "metrics": the registry already holds a metric named ${name} (another McpModule in this process?). ` +
    'Give each app its own registry: metrics: { registry: new Registry() } (import { Registry } from "prom-client").',
} as const;
