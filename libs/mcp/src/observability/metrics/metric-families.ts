import { Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMetricsMessages } from './metrics.messages.js';

/** prom-client metrics carry their `labelNames`, which its typings leave out. */
const labelNamesOf = (metric: object): string => String((metric as { labelNames?: readonly string[] }).labelNames);

/** One metric in one registry and the servers writing series to it (each under its own `server` label). */
interface Family {
  readonly metric: object;
  /** Server name → what it refreshes at scrape time (gauges read their state then). */
  readonly servers: Map<string, (() => void | Promise<void>) | undefined>;
}

/** The metrics an app's servers share, each under its `server` label; a clash of names or `tenantLabel`s fails the boot. */
@Injectable()
export class McpMetricFamilies {
  private readonly families = new Map<Registry, Map<string, Family>>();

  /** The metric `name` in `registry`: created and registered by the first server, reused by the others. */
  claim<T extends object>(
    registry: Registry,
    name: string,
    server: string,
    create: (collect: () => Promise<void>) => T,
    collect?: () => void | Promise<void>,
  ): T {
    const families = this.families.get(registry) ?? new Map<string, Family>();
    this.families.set(registry, families);
    const family = families.get(name);
    if (!family) {
      if (registry.getSingleMetric(name) !== undefined) throw new McpConfigurationError(McpMetricsMessages.alreadyRegistered(name));
      const servers: Family['servers'] = new Map([[server, collect]]);
      const metric = create(async () => {
        await Promise.all([...servers.values()].map((refresh) => refresh?.()));
      });
      registry.registerMetric(metric as never);
      families.set(name, { metric, servers });
      return metric;
    }
    if (family.servers.has(server)) throw new McpConfigurationError(McpMetricsMessages.sameServerName(name, server));
    const probe = create(async () => undefined);
    if (labelNamesOf(probe) !== labelNamesOf(family.metric)) throw new McpConfigurationError(McpMetricsMessages.labelsDiffer(name, server));
    family.servers.set(server, collect);
    return family.metric as T;
  }

  /** Takes `server` off `name`; the last server to leave takes the metric out of the registry. */
  release(registry: Registry, name: string, server: string): void {
    const family = this.families.get(registry)?.get(name);
    if (!family?.servers.delete(server) || family.servers.size > 0) return;
    this.families.get(registry)!.delete(name);
    if ((registry.getSingleMetric(name) as object | undefined) === family.metric) registry.removeSingleMetric(name);
  }
}
