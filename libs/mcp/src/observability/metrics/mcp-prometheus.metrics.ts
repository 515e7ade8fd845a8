import type { OnModuleDestroy } from '@nestjs/common';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MCP_ERROR_CODES } from '../../core/errors/error-codes.js';
import type { McpMeteredToolCall, McpMetrics, McpRequestOutcome } from '../../core/mcp-metrics.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { tenantOf } from '../../core/tenant.js';
import type { McpJobQueue } from '../../jobs/job-queue.interface.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpMetricFamilies } from './metric-families.js';
import type { McpPromClientModule } from './prom-client.loader.js';

/** Seconds; from a cache hit to a slow upstream API, and the default 30 s tool timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Domain error codes (`CITY_NOT_FOUND`) kept as label values; beyond these, and for odd ones, `OTHER`. */
const MAX_DOMAIN_CODES = 50;
const DOMAIN_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
const CATALOGUE_CODES: ReadonlySet<string> = new Set(Object.keys(MCP_ERROR_CODES));
/** Sessions seen here are pruned from the active set once their idle TTL has passed, at least this often. */
const PRUNE_EVERY = 1_000;

/** What each metric declares; the registry and the scrape hook are added by `own`. */
interface MetricConfig {
  readonly name: string;
  readonly help: string;
  readonly labelNames: string[];
  readonly buckets?: number[];
}

/** What the metrics read: the options, prom-client, and the job queue (looked up at scrape time: it depends on the pipeline). */
export interface McpPrometheusMetricsDeps {
  options: McpResolvedOptions;
  promClient: McpPromClientModule;
  jobQueue: () => McpJobQueue | undefined;
  /** The app's metrics, shared by its servers. */
  families: McpMetricFamilies;
}

/**
 * {@link McpMetrics} over prom-client. Every label value is bounded (unserved methods are `other`, at most
 * {@link MAX_DOMAIN_CODES} domain codes, tenants only with `tenantLabel`). Gauges count this instance, except
 * `mcp_jobs`, read from the job queue at scrape time.
 */
export class McpPrometheusMetrics implements McpMetrics, OnModuleDestroy {
  readonly registry: Registry;
  private readonly server: string;
  private readonly tenantLabel: boolean;
  private readonly requests: Counter<string>;
  private readonly toolCalls: Counter<string>;
  private readonly toolErrors: Counter<string>;
  private readonly toolDuration: Histogram<string>;
  private readonly upstreamCalls: Counter<string>;
  private readonly upstreamDuration: Histogram<string>;
  private readonly streams: Gauge<string>;
  /** The metrics this server claimed, released at shutdown. */
  private readonly owned: string[] = [];
  /** Session id → when it expires unless used again (ms). */
  private readonly sessions = new Map<string, number>();
  private readonly domainCodes = new Set<string>();
  private opened = 0;

  constructor(private readonly deps: McpPrometheusMetricsDeps) {
    const { options, promClient } = deps;
    const { Counter, Gauge, Histogram } = promClient;
    this.registry = (options.observability.metrics.registry as unknown as Registry | undefined) ?? promClient.register;
    this.server = options.name;
    this.tenantLabel = options.observability.metrics.tenantLabel;
    const tenant = this.tenantLabel ? ['tenant'] : [];
    this.requests = this.own(Counter, {
      name: 'mcp_requests_total',
      help: 'JSON-RPC requests by method (other: a method no handler serves) and outcome (success, error, cancelled).',
      labelNames: ['server', 'method', 'outcome', ...tenant],
    });
    this.toolCalls = this.own(Counter, {
      name: 'mcp_tool_calls_total',
      help: 'Tool calls by tool and envelope status (success, error, pending: a job was accepted).',
      labelNames: ['server', 'tool', 'status', ...tenant],
    });
    this.toolErrors = this.own(Counter, {
      name: 'mcp_tool_errors_total',
      help: 'Tool calls that answered an error envelope, by error code (OTHER beyond the bounded set).',
      labelNames: ['server', 'tool', 'code', ...tenant],
    });
    this.toolDuration = this.own(Histogram, {
      name: 'mcp_tool_duration_seconds',
      help: 'Time from the call entering the pipeline to its result (for a job: until it was accepted).',
      labelNames: ['server', 'tool', ...tenant],
      buckets: DURATION_BUCKETS,
    });
    // Upstream tools are counted above like any tool, and here once more by upstream (its configured name: bounded).
    this.upstreamCalls = this.own(Counter, {
      name: 'mcp_upstream_calls_total',
      help: "Calls of upstream servers' tools (option upstreams) by upstream and envelope status.",
      labelNames: ['server', 'upstream', 'status', ...tenant],
    });
    this.upstreamDuration = this.own(Histogram, {
      name: 'mcp_upstream_call_duration_seconds',
      help: "Time of a call of an upstream server's tool, from entering the pipeline to its result.",
      labelNames: ['server', 'upstream', ...tenant],
      buckets: DURATION_BUCKETS,
    });
    const sessions: Gauge<string> = this.own(
      Gauge,
      {
        name: 'mcp_sessions_active',
        help: 'Sessions opened on this instance and not ended or idle past sessions.idleTtlMs.',
        labelNames: ['server'],
      },
      (): void => sessions.set({ server: this.server }, this.activeSessions()),
    );
    this.streams = this.own(Gauge, { name: 'mcp_streams_active', help: 'SSE streams open on this instance.', labelNames: ['server'] });
    this.streams.set({ server: this.server }, 0);
    const jobs: Gauge<string> = this.own(
      Gauge,
      {
        name: 'mcp_jobs',
        help: 'Jobs by state: waiting for a worker or running (with redis: the whole queue, else this instance).',
        labelNames: ['server', 'state'],
      },
      async (): Promise<void> => {
        const counts = await this.deps
          .jobQueue()
          ?.counts?.()
          .catch(() => undefined);
        if (!counts) return; // queue unreachable: the last values stay (the health check reports the outage)
        jobs.set({ server: this.server, state: 'waiting' }, counts.waiting);
        jobs.set({ server: this.server, state: 'running' }, counts.running);
      },
    );
  }

  request(method: string | undefined, outcome: McpRequestOutcome, context: McpRequestContext): void {
    this.requests.inc(this.labels({ method: method ?? 'other', outcome }, tenantOf(context.principal)));
  }

  toolCall(call: McpMeteredToolCall): void {
    this.toolCalls.inc(this.labels({ tool: call.tool, status: call.status }, call.tenant));
    this.toolDuration.observe(this.labels({ tool: call.tool }, call.tenant), call.seconds);
    if (call.status === 'error') this.toolErrors.inc(this.labels({ tool: call.tool, code: this.boundedCode(call.code) }, call.tenant));
    if (call.upstream === undefined) return;
    this.upstreamCalls.inc(this.labels({ upstream: call.upstream, status: call.status }, call.tenant));
    this.upstreamDuration.observe(this.labels({ upstream: call.upstream }, call.tenant), call.seconds);
  }

  sessionOpened(sessionId: string): void {
    this.sessions.set(sessionId, Date.now() + this.deps.options.sessions.idleTtlMs);
    if (++this.opened % PRUNE_EVERY === 0) this.activeSessions();
  }

  sessionSeen(sessionId: string): void {
    // Only sessions opened here are counted, so each instance's gauge adds up to the whole.
    if (this.sessions.has(sessionId)) this.sessions.set(sessionId, Date.now() + this.deps.options.sessions.idleTtlMs);
  }

  sessionEnded(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  streamOpened(): void {
    this.streams.inc({ server: this.server });
  }

  streamClosed(): void {
    this.streams.dec({ server: this.server });
  }

  /** The registry's exposition text, for the `observability.metrics.path` endpoint. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Takes this server off its metrics (the last server of the app takes them out), so another app can register its own. */
  onModuleDestroy(): void {
    for (const name of this.owned.splice(0)) this.deps.families.release(this.registry, name, this.server);
  }

  /** The metric `config.name`, shared with the app's other servers (`refresh` runs before each scrape). */
  private own<T extends Counter<string> | Gauge<string> | Histogram<string>>(
    Metric: new (config: MetricConfig & { registers: []; collect?: () => Promise<void> }) => T,
    config: MetricConfig,
    refresh?: () => void | Promise<void>,
  ): T {
    const create = (collect: () => Promise<void>) => new Metric({ ...config, registers: [], ...(refresh && { collect }) });
    try {
      const metric = this.deps.families.claim(this.registry, config.name, this.server, create, refresh);
      this.owned.push(config.name);
      return metric;
    } catch (error) {
      this.onModuleDestroy();
      throw error;
    }
  }

  private labels(values: Record<string, string>, tenant: string): Record<string, string> {
    return this.tenantLabel ? { server: this.server, ...values, tenant: tenant.slice(0, 128) } : { server: this.server, ...values };
  }

  private boundedCode(code: string | undefined): string {
    if (code === undefined) return 'OTHER';
    if (CATALOGUE_CODES.has(code) || this.domainCodes.has(code)) return code;
    if (!DOMAIN_CODE.test(code) || this.domainCodes.size >= MAX_DOMAIN_CODES) return 'OTHER';
    this.domainCodes.add(code);
    return code;
  }

  private activeSessions(): number {
    const now = Date.now();
    for (const [id, expiresAt] of this.sessions) if (expiresAt <= now) this.sessions.delete(id);
    return this.sessions.size;
  }
}
