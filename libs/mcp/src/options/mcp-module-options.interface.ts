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
  /**
   * Share sessions, stream events, jobs and idempotency keys between instances through Redis (needs the
   * `ioredis` package). Without it everything lives in this process's memory.
   */
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
  /**
   * Public base URL of this server (`https://mcp.example.com`), used for the absolute `endpoint` URL of the
   * 2024-11-05 HTTP+SSE transport. Without it the URL is built from the request (`Host`, and `X-Forwarded-*` when `trustProxy` is set).
   */
  publicUrl?: string;
  /** Believe `X-Forwarded-Proto` / `X-Forwarded-Host` (set only behind a proxy you control). */
  trustProxy?: boolean;
  /**
   * Browser origins allowed to call (DNS-rebinding protection). Requests without `Origin` and from localhost
   * origins are always allowed; any other `Origin` gets 403 unless listed here. `['*']` turns the check off.
   */
  allowedOrigins?: string[];
  /**
   * Host names (any port) the `Host` header may carry, e.g. `['localhost', '127.0.0.1', '[::1]']` for a local
   * server: anything else gets 403 (DNS-rebinding protection for clients that send no Origin). Off when unset.
   */
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
  /**
   * Providers (declared in your own modules) implementing `McpToolFilter`: a tool one of them hides is absent from
   * `tools/list` and calling it is an unknown tool (-32602) for that caller.
   */
  filters?: Type<McpToolFilter>[];
  /**
   * Changes to the tools as clients see them, without touching their code, applied once at boot in list order:
   * `renameTool()`, `describeTool()`, `hideArguments()`, `renameArguments()`, `namespaceTools()`. A transform that
   * picks no tool, two tools ending with one name, or a required argument hidden without a value fails the boot.
   * @example transforms: [renameTool('get_weather', 'weather_now'), hideArguments('search', { tenant: 'acme' })]
   */
  transforms?: McpToolTransformation[];
  /**
   * Tool search for large catalogs: a `search_tools` tool (BM25 over names, titles, descriptions and argument names;
   * per caller, only tools it may see) and, in `replace` mode, a `call_tool` tool that calls what it found, listed
   * instead of the catalog. Off unless given. The shape of FastMCP's search transforms (the MCP specification has none yet).
   * @example search: { mode: 'replace', maxResults: 10 }
   */
  search?: McpToolSearchOptions;
  /**
   * Hide the tools whose Nest guards (`@UseGuards` on the method or class) refuse the caller, as listing sees it
   * (no arguments). Off by default: a guarded tool is then listed and refused when called.
   */
  hideGuarded?: boolean;
}

/**
 * Where tools come from besides decorated providers (module option `sources`).
 * @publicApi
 */
export interface McpSourcesOptions {
  /**
   * Controllers (every route handler) and modules (every handler of their controllers) served as tools, as
   * `@McpRoute()` on each would; `@McpExcludeRoute()` keeps a handler out. Each must hold controllers of this server.
   * @example McpModule.forRoot({ name: 'helpdesk', version: '1.0.0', sources: { routes: [TicketsController] } })
   */
  routes?: Type<unknown>[];
  /**
   * OpenAPI 3.0/3.1 documents of HTTP APIs whose operations are tools, each call a real HTTP request to the API
   * (needs the optional peer dependency `@scalar/openapi-parser`). Loaded at boot: an unreadable or invalid document
   * fails it.
   * @example openapi: [{ name: 'helpdesk', document: 'http://127.0.0.1:3100/docs-json', forwardAuthorization: true }]
   */
  openapi?: McpOpenApiSource[];
  /**
   * MCP servers served behind this one (a gateway): each upstream's tools and prompts as `<name>_<tool>`, its
   * resources as `<name>+<uri>`, through this server's authentication, scopes, limits, idempotency and metrics.
   * Turns `lists.listChanged` on for tools, prompts and resources: an upstream's list changes become this server's.
   * @example upstreams: [{ name: 'weather', url: 'http://127.0.0.1:3000/mcp' }, { name: 'files', command: 'npx', args: ['my-mcp-server'] }]
   */
  upstreams?: McpUpstreamOptions[];
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
 * OpenTelemetry traces: a `SERVER` span per JSON-RPC request (`tools/call get_weather`) and an `INTERNAL` span per
 * tool run (`execute_tool get_weather`), named and attributed per the OpenTelemetry MCP semantic conventions, their
 * parent read from `params._meta.traceparent` or the HTTP `traceparent` header. Spans go through
 * `@opentelemetry/api` (an optional peer dependency) to whatever SDK the application registers; none registered,
 * the API's no-op tracer runs.
 * @publicApi
 * @example McpModule.forRoot({ name: 'weather', version: '1.0.0', observability: { tracing: { enabled: true } } })
 */
export interface McpTracingOptions {
  /**
   * Default: on when `@opentelemetry/api` is installed, off (silently) when it is not. `true` requires the package
   * (the boot fails without it); `false` turns tracing off.
   */
  enabled?: boolean;
}

/**
 * The `requestState` a 2026-07-28 `input_required` round hands the client, signed so it comes back unaltered.
 * @publicApi
 */
export interface McpRequestStateOptions {
  /**
   * Key of the HMAC that protects `requestState`: at least 32 characters, the same on every instance behind one
   * URL. Default: a random key per process, with a boot warning (a retry that lands on another instance would
   * then be refused).
   */
  secret?: string;
  /** How long the client may take to answer an `input_required` round, in ms (10 minutes). */
  ttlMs?: number;
}

/**
 * Lists whose changes you announce with `McpListChangedNotifier`: declares `listChanged` for them (both eras)
 * and delivers the notifications to `subscriptions/listen` streams (2026-07-28) and the GET streams of
 * 2025-era sessions. Each is off by default.
 * @publicApi
 */
export interface McpListChangedOptions {
  tools?: boolean;
  prompts?: boolean;
  resources?: boolean;
}

/**
 * Long-running tools. `lockDurationMs`, `stalledIntervalMs` and `maxStalledCount` apply with the `redis` option,
 * where jobs run on a BullMQ queue shared by every instance: a worker that dies mid-job stops renewing its lock,
 * and within `lockDurationMs + stalledIntervalMs` (8 s by default) another instance's worker takes the job over.
 * @publicApi
 */
export interface McpJobOptions {
  /** How long a job and its result are kept (1 hour). */
  resultTtlMs?: number;
  /**
   * How long a worker's lock on a running job lasts without renewal, in ms (6 000; 1 000 to 600 000). BullMQ
   * renews it every half of it, so a handler that blocks the event loop longer than that may lose its job to
   * another instance (run CPU-bound work in a worker thread).
   */
  lockDurationMs?: number;
  /** How often the instances look for jobs whose worker is gone, in ms (2 000; at most `lockDurationMs`). */
  stalledIntervalMs?: number;
  /** Times a job may be taken over after its worker died before it is failed (1); 0 fails it at once. */
  maxStalledCount?: number;
  /**
   * Jobs one instance runs at once (10), in memory and with Redis; accepted jobs beyond it wait, `pending`, for
   * a free worker (in this process, or in the BullMQ queue) and can be cancelled while they wait.
   */
  concurrency?: number;
  /**
   * Jobs one tenant may have queued or running at once (100), counted in the store so the cap holds across
   * instances with Redis. A call that would start one more answers `QUOTA_EXCEEDED` (retryable); a job frees
   * its place as soon as it ends (success, error or cancellation).
   */
  maxQueuedPerTenant?: number;
}

/**
 * Graceful shutdown. On SIGTERM (with `app.enableShutdownHooks()`) the instance refuses new requests (503 with
 * `Retry-After`) and ends its streams with a `retry` hint, then gives in-flight tool calls and running jobs
 * `graceMs` to finish: a call still running then answers `UNAVAILABLE` (retryable), and a job still running goes
 * back to the queue for another instance at once (with `redis`) or ends as `UNAVAILABLE` (in memory).
 * @publicApi
 */
export interface McpShutdownOptions {
  /** How long in-flight calls and jobs may run after SIGTERM, in ms (10 000; 0 hands them back at once). */
  graceMs?: number;
}

/**
 * Where the Redis store, message bus and job queue connect: one server (`url`) or a Redis Cluster (`cluster`),
 * exactly one of the two.
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
   * Prefix of every key and pub/sub channel, so several servers can share one Redis. Default: `mcp:` for the server
   * at the default path `/mcp`, `mcp:<path>:` for any other (`mcp:admin/mcp:` at `/admin/mcp`). Two servers of one
   * app on the same Redis host and port with the same prefix fail the boot (the database number does not part them:
   * pub/sub ignores it).
   */
  keyPrefix?: string;
  /**
   * The liveness lease each instance renews in the store while it runs: requests for a 2024-11-05 HTTP+SSE session
   * or a live stream held by an instance whose lease expired answer 404.
   */
  instanceLease?: McpInstanceLeaseOptions;
}

/**
 * A Redis Cluster to connect to. Keys that one script or transaction touches together carry a hash tag
 * (`{<tenant>}`), so they share a slot; BullMQ's keys share `{<keyPrefix>bull}`.
 * @publicApi
 */
export interface McpRedisClusterOptions {
  /** Startup nodes (at least one); the rest of the cluster is discovered from them. */
  nodes: McpRedisClusterNode[];
  /**
   * Passed to ioredis `new Cluster(nodes, options)` (e.g. `redisOptions: { password, tls }`, `natMap`). The
   * fail-fast settings (no offline queue, command timeout) are applied on top, as for `url`.
   */
  options?: Record<string, unknown>;
}

/** One startup node of {@link McpRedisClusterOptions}. @publicApi */
export interface McpRedisClusterNode {
  host: string;
  port: number;
}

/**
 * The liveness lease of an instance (`redis.instanceLease`): `lease:<instanceId>` in the store, renewed on a timer. An
 * instance that stops renewing it (killed, frozen, cut off from Redis) counts as dead once it expires.
 * @publicApi
 */
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
  /**
   * Idempotency records one tenant may hold at once (10 000); a call with a new key beyond it gets
   * `QUOTA_EXCEEDED` (retryable) without running, while retries of stored keys still get their results.
   */
  maxKeysPerTenant?: number;
}

/** @publicApi */
export interface McpLimitOptions {
  /** Deepest JSON nesting accepted in a message (64). */
  maxJsonDepth?: number;
  /** Most elements in one JSON array, or members in one object (10 000). */
  maxJsonCollectionSize?: number;
  /**
   * How long the body of an MCP POST may take to arrive, from the request's start (30 000 ms); a slower one is
   * answered 408 and its connection closed, on both adapters (Fastify sets no request timeout of its own).
   */
  bodyTimeoutMs?: number;
  /**
   * Tool calls one tenant may run at once (100; with `redis`, across all instances); more get `RATE_LIMITED`.
   * A call's place is a lease of its timeout plus 5 s, so the places of an instance that died come back.
   */
  maxConcurrentCallsPerTenant?: number;
  /** Tool calls one tenant may start per fixed window (with `redis`, across all instances); off unless set. */
  rateLimit?: { limit: number; windowMs: number };
  /**
   * Open SSE streams per tenant (100; with `redis`, across all instances); more get HTTP 429. A stream's place
   * is renewed by its keep-alives and lapses three `http.streams.keepAliveMs` after its instance died.
   */
  maxStreamsPerTenant?: number;
  /** Live sessions per tenant (1 000; with `redis`, across all instances); more get HTTP 429 on initialize. */
  maxSessionsPerTenant?: number;
  /**
   * Records one tenant may hold in the store at once: sessions, job records and idempotency records together
   * (10 000). Beyond it new ones are refused with `QUOTA_EXCEEDED` (retryable; HTTP 429 on initialize) and
   * nothing of any tenant is evicted. With `redis` the count spans all instances.
   */
  maxStoredKeysPerTenant?: number;
}

/** @publicApi */
export interface McpSessionOptions {
  /**
   * `optional` (default): `initialize` opens a session, requests without one are served statelessly (clients that POST
   * without ever sending `Mcp-Session-Id`). `required`: a non-initialize request without `Mcp-Session-Id` gets 400. `stateless`: no sessions.
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
   * Bytes of JSON text the events kept for replay of one stream may take in all (8 MiB), oldest dropped first, as
   * `maxEventsPerStream` drops them; both bounds hold. Twice `maxBufferedBytes` by default, so a reader cut for
   * reading too slowly can still resume from where it was. An event larger than this on its own is still sent live but not
   * kept: a `Last-Event-ID` from it resumes after it, one from before it is unknown (404), as a dropped event's id is.
   */
  maxEventBytesPerStream?: number;
  /** `retry:` hint sent before the server closes a stream, in ms (1 000). */
  retryMs?: number;
  /**
   * Bytes a stream's connection may leave unflushed (written, not yet taken by its reader) before the server
   * cuts it (4 MiB). Checked on every write, keep-alives included, with no grace period: the budget itself is
   * the slack. A cut reader of a resumable stream gets what it missed with `Last-Event-ID`.
   */
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
   * The modules whose providers this server serves (tools, resources, prompts, completions, UI resources, task
   * support): only providers declared in these modules, not in the modules they import (Nest's
   * `DiscoveryService` `include`, as `GraphQLModule` and `SwaggerModule` use it). Default: every provider of the
   * app. A listed module the app does not contain fails the boot.
   * @example McpModule.forRoot({ name: 'admin', version: '1.0.0', path: '/admin/mcp', include: [AdminModule] })
   */
  include?: Type<unknown>[];
  /**
   * Serve the host-level discovery documents `/.well-known/oauth-protected-resource` and
   * `/.well-known/mcp/server-card.json` (true). The path-specific ones (`/.well-known/oauth-protected-resource<path>`,
   * `<path>/server-card`) are always served. With several servers in one app, at most one may keep this on.
   */
  wellKnownRoot?: boolean;
  /**
   * Map the routes of the authorization-server bridge (`/.well-known/oauth-authorization-server`, `/oauth/*`) for
   * options that come from `forRootAsync`'s factory, which runs after routes are mapped (false). `forRoot` maps them
   * whenever its `auth.bridge` is set. An `auth.bridge` whose routes are not mapped fails the boot.
   */
  authBridgeRoutes?: boolean;
}

/**
 * The explorer page (`<path>/explorer`): lists tools, resources and prompts, renders a form per tool from its
 * `inputSchema` and calls it through the real endpoint with the credentials typed into the page. The page itself
 * holds no data and needs no credentials; it is served with a strict Content-Security-Policy (no external fetch).
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

/**
 * `tools.search`: how the catalog is searched.
 * @publicApi
 */
export interface McpToolSearchOptions {
  /** On once `tools.search` is given, unless `false`. */
  enabled?: boolean;
  /**
   * `replace` (the default): `tools/list` shows only `search_tools` and `call_tool`; every tool stays callable by
   * its name too. `beside`: `tools/list` shows the whole catalog and `search_tools` with it.
   */
  mode?: 'replace' | 'beside';
  /** Most tools one search returns (10; at most 50). */
  maxResults?: number;
}
