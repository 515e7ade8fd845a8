import type { McpUpstreamOptions } from '../features/upstreams/mcp-upstream-options.interface.js';
import type { ConfigurableModuleAsyncOptions, Type } from '@nestjs/common';
import type { McpToolFilter } from '../features/tools/mcp-tool-filter.interface.js';
import type { McpToolTransformation } from '../features/transforms/mcp-tool-transformation.js';
import type { McpOpenApiSource } from '../features/openapi/mcp-openapi-options.interface.js';
import type { McpAuthOptions } from '../auth/mcp-auth-options.interface.js';
import type { McpMetricsOptions } from './mcp-metrics-options.interface.js';
import type { McpServerCardOptions } from './mcp-server-card-options.interface.js';

/**
 * Options of `McpModule.forRoot()` / `forRootAsync()`: the server's identity at the top, everything else in groups.
 * @publicApi
 */
export interface McpModuleOptions {
  /** `serverInfo.name`: letters, digits, underscore and hyphen (some clients refuse other characters). */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  title?: string;
  description?: string;
  /** Hint for the model, returned by `initialize`. */
  instructions?: string;
  /** The HTTP endpoint: its public URL, proxies, DNS-rebinding checks, body size and SSE streams. */
  http?: McpHttpOptions;
  /** The tools as callers see them: timeout, filters, transforms, search, guard-based hiding. */
  tools?: McpToolsOptions;
  /** Where tools come from besides decorated providers: controllers, OpenAPI documents, upstream MCP servers. */
  sources?: McpSourcesOptions;
  /** `tools/list`, `prompts/list` and `resources/list`: page size and change announcements. */
  lists?: McpListsOptions;
  /** Streamable HTTP sessions. */
  sessions?: McpSessionOptions;
  /** Authentication (JWT Bearer, API keys, or your own authenticator) and OAuth resource metadata. */
  auth?: McpAuthOptions;
  /** Bounds against hostile or runaway input. */
  limits?: McpLimitOptions;
  /** Share sessions, stream events, jobs and idempotency keys between instances through Redis (`ioredis`); else memory. */
  redis?: McpRedisOptions;
  /** Long-running tools (`@McpTool({ job: true })`). */
  jobs?: McpJobOptions;
  /** Graceful shutdown (`app.enableShutdownHooks()`, SIGTERM): how long in-flight calls and jobs may finish. */
  shutdown?: McpShutdownOptions;
  /** Idempotency keys (`@McpTool({ idempotencyKey: '...' })`). */
  idempotency?: McpIdempotencyOptions;
  /** The `requestState` of 2026-07-28 input rounds (multi round-trip requests): its HMAC key and lifetime. */
  requestState?: McpRequestStateOptions;
  /** The Server Card (SEP-2127) at `/.well-known/mcp/server-card.json` and `<path>/server-card`; on by default. */
  serverCard?: McpServerCardOptions;
  /** Prometheus metrics and OpenTelemetry traces. */
  observability?: McpObservabilityOptions;
}

/**
 * The HTTP endpoint (module option `http`).
 * @publicApi
 * @example http: { publicUrl: 'https://mcp.example.com', trustProxy: true, allowedHosts: ['mcp.example.com'] }
 */
export interface McpHttpOptions {
  /** Public base URL for the 2024-11-05 `endpoint` URL; else built from `Host` (and `X-Forwarded-*` with `trustProxy`). */
  publicUrl?: string;
  /** Believe `X-Forwarded-Proto` / `X-Forwarded-Host`, and `X-Forwarded-For` for the `ip` guards see (set only behind a proxy you control). */
  trustProxy?: boolean;
  /** More browser origins allowed (DNS rebinding): no `Origin` and localhost always pass, others get 403; `['*']`: off. */
  allowedOrigins?: string[];
  /** Host names (any port) `Host` may carry, else 403 (DNS rebinding without Origin), e.g. `['localhost']`; off if unset. */
  allowedHosts?: string[];
  /** Largest accepted request body in bytes (1 MiB); larger bodies get HTTP 413. */
  maxBodyBytes?: number;
  /** SSE streams (POST streams, the GET stream, the 2024-11-05 HTTP+SSE stream). */
  streams?: McpStreamOptions;
}

/**
 * The tools as callers see them (module option `tools`).
 * @publicApi
 * @example tools: { timeoutMs: 10_000, search: { mode: 'replace' }, hideGuarded: true }
 */
export interface McpToolsOptions {
  /** Default timeout of a tool call in milliseconds (30 000). */
  timeoutMs?: number;
  /** `McpToolFilter` providers: a tool one hides is absent from `tools/list` and unknown (-32602) for that caller. */
  filters?: Type<McpToolFilter>[];
  /**
   * `renameTool()`, `describeTool()`, `hideArguments()`, `renameArguments()`, `namespaceTools()`, applied at boot in
   * order. One that picks no tool, merges two names or hides a required argument without a value fails the boot.
   * @example transforms: [renameTool('get_weather', 'weather_now'), hideArguments('search', { tenant: 'acme' })]
   */
  transforms?: McpToolTransformation[];
  /**
   * A `search_tools` tool (BM25 over the tools the caller may see) and, in `replace` mode, `call_tool`, listed
   * instead of the catalog (FastMCP's search transforms; the specification has none). Off unless given.
   * @example search: { mode: 'replace', maxResults: 10 }
   */
  search?: McpToolSearchOptions;
  /** Hide tools whose `@UseGuards` guards refuse the caller (probed without arguments); else listed, refused on call. */
  hideGuarded?: boolean;
}

/** Where tools come from besides decorated providers (module option `sources`). @publicApi */
export interface McpSourcesOptions {
  /**
   * Controllers and modules whose route handlers are tools, as with `@McpRoute()` on each (`@McpExcludeRoute()` opts out).
   * @example McpModule.forRoot({ name: 'helpdesk', version: '1.0.0', sources: { routes: [TicketsController] } })
   */
  routes?: Type<unknown>[];
  /**
   * OpenAPI 3.0/3.1 documents whose operations are tools calling the API (needs `@scalar/openapi-parser`); a bad
   * document fails the boot.
   * @example openapi: [{ name: 'helpdesk', document: 'http://127.0.0.1:3100/docs-json', forwardAuthorization: true }]
   */
  openapi?: McpOpenApiSource[];
  /**
   * MCP servers behind this one (a gateway): tools and prompts as `<name>_<tool>`, resources as `<name>+<uri>`,
   * through this server's auth, limits and metrics. Turns every `lists.listChanged` on.
   * @example upstreams: [{ name: 'weather', url: 'http://127.0.0.1:3000/mcp' }, { name: 'files', command: 'npx', args: ['my-mcp-server'] }]
   */
  upstreams?: McpUpstreamOptions[];
  /**
   * Folders of Agent Skills (SEP-2640), each holding one folder per skill with its `SKILL.md`: served as
   * `skill://<name>/...` with `skills/list`, `skills/get` and `resources/read`; a bad skill fails the boot.
   * @example skills: [join(import.meta.dirname, 'skills')]
   */
  skills?: string[];
}

/**
 * `tools/list`, `prompts/list` and `resources/list` (module option `lists`).
 * @publicApi
 * @example lists: { pageSize: 50, listChanged: { tools: true } }
 */
export interface McpListsOptions {
  /** Items per `tools/list`, `prompts/list` and `resources/list` page (100). */
  pageSize?: number;
  /** Lists whose changes you announce with `McpListChangedNotifier` (both eras). */
  listChanged?: McpListChangedOptions;
}

/**
 * Metrics and traces (module option `observability`).
 * @publicApi
 * @example observability: { metrics: { path: '/metrics' }, tracing: { enabled: true } }
 */
export interface McpObservabilityOptions {
  /** Prometheus metrics (needs the `prom-client` package); off unless given. */
  metrics?: McpMetricsOptions;
  /** OpenTelemetry spans per JSON-RPC request and tool call, through `@opentelemetry/api` when it is installed. */
  tracing?: McpTracingOptions;
}

/**
 * OpenTelemetry traces per the MCP semantic conventions: a `SERVER` span per request, an `INTERNAL` span per tool
 * run, parented by `_meta.traceparent` or the `traceparent` header, through `@opentelemetry/api` to the app's SDK.
 * @publicApi
 * @example McpModule.forRoot({ name: 'weather', version: '1.0.0', observability: { tracing: { enabled: true } } })
 */
export interface McpTracingOptions {
  /** Default: on when `@opentelemetry/api` is installed; `true` fails the boot without it. */
  enabled?: boolean;
}

/** The signed `requestState` a 2026-07-28 `input_required` round hands the client. @publicApi */
export interface McpRequestStateOptions {
  /** HMAC key (32+ characters), the same on every instance; default: random per process, with a boot warning. */
  secret?: string;
  /** How long the client may take to answer an `input_required` round, in ms (10 minutes). */
  ttlMs?: number;
}

/** Lists whose changes `McpListChangedNotifier` announces (declared `listChanged`, both eras); each off by default. @publicApi */
export interface McpListChangedOptions {
  tools?: boolean;
  prompts?: boolean;
  resources?: boolean;
}

/**
 * Long-running tools. With `redis` jobs run on a shared BullMQ queue: a dead worker's job is taken over within
 * `lockDurationMs + stalledIntervalMs` (8 s); those and `maxStalledCount` apply there only.
 * @publicApi
 */
export interface McpJobOptions {
  /** How long a job and its result are kept (1 hour). */
  resultTtlMs?: number;
  /** A worker's job lock without renewal, ms (6 000; 1 000–600 000); blocking the event loop longer loses the job. */
  lockDurationMs?: number;
  /** How often the instances look for jobs whose worker is gone, in ms (2 000; at most `lockDurationMs`). */
  stalledIntervalMs?: number;
  /** Times a job may be taken over after its worker died before it is failed (1); 0 fails it at once. */
  maxStalledCount?: number;
  /** Jobs one instance runs at once (10); more wait `pending` (cancellable) for a free worker. */
  concurrency?: number;
  /** Jobs one tenant may have queued or running (100, across instances); one more is `QUOTA_EXCEEDED` (retryable). */
  maxQueuedPerTenant?: number;
}

/**
 * Graceful shutdown: on SIGTERM new requests get 503 and streams end with a `retry` hint; after `graceMs` a running
 * call answers `UNAVAILABLE` and a running job goes back to the queue (`redis`) or ends `UNAVAILABLE`.
 * @publicApi
 */
export interface McpShutdownOptions {
  /** How long in-flight calls and jobs may run after SIGTERM, in ms (10 000; 0 hands them back at once). */
  graceMs?: number;
}

/**
 * Where the Redis store, bus and job queue connect: exactly one of `url` and `cluster`.
 * @publicApi
 * @example
 * redis: { url: 'redis://localhost:6379' }
 * redis: { cluster: { nodes: [{ host: '10.0.0.1', port: 6379 }, { host: '10.0.0.2', port: 6379 }] } }
 */
export interface McpRedisOptions {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  url?: string;
  /** A Redis Cluster (ioredis `Cluster`): some of its master nodes; the others are discovered. */
  cluster?: McpRedisClusterOptions;
  /**
   * Prefix of every key and channel: `mcp:` at `/mcp`, else `mcp:<path>:` (`mcp:admin/mcp:`). Two servers of one app
   * on one Redis host and port with one prefix fail the boot (pub/sub ignores the database number).
   */
  keyPrefix?: string;
  /** Each instance's liveness lease: a 2024-11-05 session or live stream of an instance whose lease expired is 404. */
  instanceLease?: McpInstanceLeaseOptions;
}

/** A Redis Cluster; keys used together share a hash tag (`{<tenant>}`, BullMQ's `{<keyPrefix>bull}`). @publicApi */
export interface McpRedisClusterOptions {
  /** Startup nodes (at least one); the rest of the cluster is discovered from them. */
  nodes: McpRedisClusterNode[];
  /** ioredis `Cluster` options (`redisOptions: { password, tls }`, `natMap`); fail-fast settings go on top, as for `url`. */
  options?: Record<string, unknown>;
}

/** One startup node of {@link McpRedisClusterOptions}. @publicApi */
export interface McpRedisClusterNode {
  host: string;
  port: number;
}

/** `redis.instanceLease`: an instance that stops renewing `lease:<instanceId>` counts as dead once it expires. @publicApi */
export interface McpInstanceLeaseOptions {
  /** How long a lease lives without renewal (5 000 ms): the longest a dead instance's sessions still look alive. */
  ttlMs?: number;
  /** How often an instance renews its lease (1 500 ms); must be below `ttlMs`. */
  renewMs?: number;
}

/** @publicApi */
export interface McpIdempotencyOptions {
  /** How long a key remembers its first result (24 hours). */
  ttlMs?: number;
  /** Records one tenant may hold (10 000); a new key beyond is `QUOTA_EXCEEDED` (retryable), stored keys still answer. */
  maxKeysPerTenant?: number;
}

/** @publicApi */
export interface McpLimitOptions {
  /** Deepest JSON nesting accepted in a message (64). */
  maxJsonDepth?: number;
  /** Most elements in one JSON array, or members in one object (10 000). */
  maxJsonCollectionSize?: number;
  /** Time for a POST body to arrive (30 000 ms), else 408 and the connection closed (Fastify has no timeout of its own). */
  bodyTimeoutMs?: number;
  /** Tool calls one tenant may run at once (100, across instances); more get `RATE_LIMITED`. Places lapse at timeout + 5 s. */
  maxConcurrentCallsPerTenant?: number;
  /** Tool calls one tenant may start per fixed window (with `redis`, across all instances); off unless set. */
  rateLimit?: { limit: number; windowMs: number };
  /** Open SSE streams per tenant (100, across instances); more get 429. A dead instance's places lapse in 3 keep-alives. */
  maxStreamsPerTenant?: number;
  /** Live sessions per tenant (1 000; with `redis`, across all instances); more get HTTP 429 on initialize. */
  maxSessionsPerTenant?: number;
  /** Sessions, jobs and idempotency records one tenant may hold (10 000); more get `QUOTA_EXCEEDED`, nothing is evicted. */
  maxStoredKeysPerTenant?: number;
}

/** @publicApi */
export interface McpSessionOptions {
  /**
   * `optional` (default): `initialize` opens a session, requests without one are served statelessly. `required`:
   * other requests without `Mcp-Session-Id` get 400. `stateless`: no sessions.
   */
  mode?: 'optional' | 'required' | 'stateless';
  /** A session unused for this long ends (30 minutes). */
  idleTtlMs?: number;
}

/** @publicApi */
export interface McpStreamOptions {
  /** Interval of `: keepalive` comments on open streams (15 000 ms). */
  keepAliveMs?: number;
  /** Events kept per stream for `Last-Event-ID` replay (1 000). */
  maxEventsPerStream?: number;
  /**
   * Bytes of JSON the replay events of one stream may take (8 MiB, twice `maxBufferedBytes`), oldest dropped first.
   * A larger event is sent but not kept: replay from before it is 404.
   */
  maxEventBytesPerStream?: number;
  /** `retry:` hint sent before the server closes a stream, in ms (1 000). */
  retryMs?: number;
  /** Unflushed bytes a stream's connection may hold before it is cut (4 MiB), checked on every write; resume with `Last-Event-ID`. */
  maxBufferedBytes?: number;
}

/** Options known when the module is defined (before any async factory runs), passed beside the options. @publicApi */
export interface McpModuleExtras {
  /** Path of the Streamable HTTP endpoint (`/mcp`). */
  path?: string;
  /** Register the module globally. */
  isGlobal?: boolean;
  /** 2024-11-05 HTTP+SSE stream path (`/sse`); `false` turns the 2024-11-05 HTTP+SSE transport off. */
  ssePath?: string | false;
  /** 2024-11-05 HTTP+SSE message path (`/messages`). */
  messagesPath?: string;
  /** The explorer page: a self-contained browser page that lists and calls the tools through the endpoint. Off by default. */
  explorer?: McpExplorerOptions;
  /**
   * Serve only providers declared in these modules, not their imports (Nest's `DiscoveryService` `include`); default:
   * every provider. A module the app does not contain fails the boot.
   * @example McpModule.forRoot({ name: 'admin', version: '1.0.0', path: '/admin/mcp', include: [AdminModule] })
   */
  include?: Type<unknown>[];
  /** Serve the host-level `/.well-known/` documents (true); path-specific ones always are. At most one server per app. */
  wellKnownRoot?: boolean;
  /** Map the `auth.bridge` routes for `forRootAsync` (false; `forRoot` maps them when set); unmapped, the boot fails. */
  authBridgeRoutes?: boolean;
}

/**
 * The explorer page (`<path>/explorer`): lists the components and calls tools through the endpoint with the
 * credentials typed in; it holds no data and has a strict Content-Security-Policy.
 * @publicApi
 * @example McpModule.forRoot({ name: 'weather', version: '1.0.0', explorer: { enabled: process.env.NODE_ENV !== 'production' } })
 */
export interface McpExplorerOptions {
  /** Serve the page (false). */
  enabled?: boolean;
  /** Where (`<path>/explorer`, e.g. `/mcp/explorer`); must not collide with the MCP paths. */
  path?: string;
}

/** What `McpModule.forRoot()` takes: the options and the extras side by side. @publicApi */
export type McpModuleForRootOptions = McpModuleOptions & McpModuleExtras;

/**
 * What `McpModule.forRootAsync()` takes: a factory (or class) producing the options, with the extras beside it.
 * @publicApi
 * @example McpModule.forRootAsync({ useFactory: (config: ConfigService) => ({ name: 'weather', version: config.get('VERSION') }), inject: [ConfigService] })
 */
export type McpModuleAsyncOptions = ConfigurableModuleAsyncOptions<McpModuleOptions, 'create'> & McpModuleExtras;

/** Options after defaults and checks: what the library reads at run time (derived from the declarations). */
export type { McpResolvedOptions } from './declarations/module.options.js';

/** `tools.search`: how the catalog is searched. @publicApi */
export interface McpToolSearchOptions {
  /** On once `tools.search` is given, unless `false`. */
  enabled?: boolean;
  /** `replace` (default): list only `search_tools` and `call_tool` (tools stay callable); `beside`: both. */
  mode?: 'replace' | 'beside';
  /** Most tools one search returns (10; at most 50). */
  maxResults?: number;
}
