import type * as PromClient from 'prom-client';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { importOptionalPeer } from '../../core/optional-peer.js';
import { McpMetricsMessages } from './metrics.messages.js';

/** The parts of prom-client the metrics use. */
export type McpPromClientModule = Pick<typeof PromClient, 'Counter' | 'Gauge' | 'Histogram' | 'register'>;

/** prom-client, imported only when the metrics option is used (prom-client is an optional peer, like bullmq). */
export async function loadPromClient(
  importer: () => Promise<McpPromClientModule> = () => import('prom-client'),
): Promise<McpPromClientModule> {
  const module = await importOptionalPeer(importer);
  if (!module) throw new McpConfigurationError(McpMetricsMessages.promClientMissing());
  // CommonJS seen from ESM: the named exports may sit on `default` only.
  const { Counter, Gauge, Histogram, register } = (module as { default?: McpPromClientModule }).default ?? module;
  return { Counter, Gauge, Histogram, register };
}
