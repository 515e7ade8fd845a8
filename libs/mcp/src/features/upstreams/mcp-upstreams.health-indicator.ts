import { Injectable } from '@nestjs/common';
import { McpUpstreamsProvider } from './mcp-upstreams.provider.js';

/** One upstream in a health result (the shape `@nestjs/terminus` reads, with what the upstream is doing). @publicApi */
export interface McpUpstreamHealth {
  status: 'up' | 'down';
  /** Whether the last contact succeeded (pings run every 5 s). */
  reachable: boolean;
  transport: 'http' | 'stdio';
  /** Tools served of it (the last list, kept while it is down). */
  tools: number;
  /** HTTP: upstream sessions open now, one per calling tenant. */
  sessions?: number;
  /** Why it is unreachable (no address, no stack). */
  message?: string;
}

/** @publicApi */
export interface McpUpstreamsHealthOptions {
  /** Upstreams without which the gateway counts as down (a 503 from terminus); the others are reported only (none). */
  required?: string[];
}

/**
 * A health indicator for `@nestjs/terminus` reporting each upstream of the module option `sources.upstreams` under
 * `<key>.<name>`. An unreachable upstream does not fail the check unless it is `required`: the gateway serves the
 * others meanwhile. It reads the state the upstreams' own pings keep, so a check sends nothing upstream.
 * @publicApi
 * @example this.health.check([() => this.mcp.isHealthy('mcp'), () => this.upstreams.isHealthy('upstreams')])
 */
@Injectable()
export class McpUpstreamsHealthIndicator {
  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(private readonly upstreams: McpUpstreamsProvider) {}

  isHealthy(key = 'upstreams', options: McpUpstreamsHealthOptions = {}): Record<string, McpUpstreamHealth> {
    const required = new Set(options.required ?? []);
    return Object.fromEntries(
      Object.entries(this.upstreams.statuses()).map(([name, status]) => [
        `${key}.${name}`,
        { status: status.reachable || !required.has(name) ? 'up' : 'down', ...status },
      ]),
    );
  }
}
