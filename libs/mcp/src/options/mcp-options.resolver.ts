import { createPublicKey } from 'node:crypto';
import type { McpAuthOptions } from '../auth/mcp-auth-options.interface.js';
import { JWT_LIFETIME_DEFAULTS } from '../auth/jwt.verifier.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../core/errors/mcp.messages.js';
import { assertKnownOptionKeys } from './mcp-option-keys.js';
import { resolveServerCardOptions } from './server-card-options.resolver.js';
import { DEFAULT_REDIS_KEY_PREFIX } from '../stores/redis.store.js';
import { resolveJobOptions, resolveShutdownOptions } from '../tasks/engine/job-options.resolver.js';
import type { McpModuleExtras, McpModuleOptions, McpRedisClusterOptions, McpResolvedOptions } from './mcp-module-options.interface.js';
import type { McpResolvedMetricsOptions } from './mcp-metrics-options.interface.js';

const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MIB = 1024 * 1024;

/** Applies defaults and rejects bad options at boot, naming the option. */
export function resolveMcpOptions(options: McpModuleOptions | undefined, paths: McpResolvedPaths): McpResolvedOptions {
  if (!options || typeof options !== 'object')
    throw new McpConfigurationError(McpMessages.invalidOption('options', 'must be an object with at least name and version'));
  assertKnownOptionKeys(options);
  if (typeof options.name !== 'string' || !SERVER_NAME_PATTERN.test(options.name)) {
    throw new McpConfigurationError(McpMessages.invalidOption('name', 'must be 1 to 64 letters, digits, "_" or "-"'));
  }
  if (typeof options.version !== 'string' || options.version.length === 0) {
    throw new McpConfigurationError(McpMessages.invalidOption('version', 'must be a non-empty string'));
  }
  for (const key of ['title', 'description', 'instructions'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string')
      throw new McpConfigurationError(McpMessages.invalidOption(key, 'must be a string'));
  }
  return {
    name: options.name,
    version: options.version,
    title: options.title,
    description: options.description,
    instructions: options.instructions,
    toolTimeoutMs: positiveInteger('toolTimeoutMs', options.toolTimeoutMs, 30_000),
    pageSize: positiveInteger('pageSize', options.pageSize, 100),
    maxBodyBytes: positiveInteger('maxBodyBytes', options.maxBodyBytes, MIB),
    trustProxy: options.trustProxy === true,
    publicUrl: publicUrl(options.publicUrl),
    ...paths,
    sessions: {
      mode: oneOf('sessions.mode', options.sessions?.mode, ['optional', 'required', 'stateless'] as const, 'optional'),
      idleTtlMs: positiveInteger('sessions.idleTtlMs', options.sessions?.idleTtlMs, 30 * 60_000),
    },
    auth: resolveAuth(options.auth),
    jobs: resolveJobOptions(options.jobs),
    shutdown: resolveShutdownOptions(options.shutdown),
    idempotency: {
      ttlMs: positiveInteger('idempotency.ttlMs', options.idempotency?.ttlMs, 24 * 60 * 60_000),
      maxKeysPerTenant: positiveInteger('idempotency.maxKeysPerTenant', options.idempotency?.maxKeysPerTenant, 10_000),
    },
    redis: resolveRedis(options.redis, paths.path),
    instanceLease: resolveInstanceLease(options.instanceLease),
    requestState: resolveRequestState(options.requestState),
    listChanged: resolveListChanged(options.listChanged),
    toolFilters: resolveToolFilters(options.toolFilters),
    hideGuardedTools: resolveFlag('hideGuardedTools', options.hideGuardedTools),
    metrics: resolveMetrics(options.metrics, paths),
    serverCard: resolveServerCardOptions(options.serverCard),
    tracing: resolveTracing(options.tracing),
    allowedOrigins: stringList('allowedOrigins', options.allowedOrigins),
    allowedHosts:
      options.allowedHosts === undefined ? undefined : stringList('allowedHosts', options.allowedHosts).map((host) => host.toLowerCase()),
    limits: {
      maxJsonDepth: positiveInteger('limits.maxJsonDepth', options.limits?.maxJsonDepth, 64),
      maxJsonCollectionSize: positiveInteger('limits.maxJsonCollectionSize', options.limits?.maxJsonCollectionSize, 10_000),
      maxConcurrentCallsPerTenant: positiveInteger('limits.maxConcurrentCallsPerTenant', options.limits?.maxConcurrentCallsPerTenant, 100),
      maxStreamsPerTenant: positiveInteger('limits.maxStreamsPerTenant', options.limits?.maxStreamsPerTenant, 100),
      maxSessionsPerTenant: positiveInteger('limits.maxSessionsPerTenant', options.limits?.maxSessionsPerTenant, 1_000),
      maxStoredKeysPerTenant: positiveInteger('limits.maxStoredKeysPerTenant', options.limits?.maxStoredKeysPerTenant, 10_000),
      rateLimit: options.limits?.rateLimit && {
        limit: positiveInteger('limits.rateLimit.limit', options.limits.rateLimit.limit, 1),
        windowMs: positiveInteger('limits.rateLimit.windowMs', options.limits.rateLimit.windowMs, 1),
      },
    },
    streams: {
      keepAliveMs: positiveInteger('streams.keepAliveMs', options.streams?.keepAliveMs, 15_000),
      maxEventsPerStream: positiveInteger('streams.maxEventsPerStream', options.streams?.maxEventsPerStream, 1_000),
      maxEventBytesPerStream: positiveInteger('streams.maxEventBytesPerStream', options.streams?.maxEventBytesPerStream, 8 * MIB),
      retryMs: positiveInteger('streams.retryMs', options.streams?.retryMs, 1_000),
      maxBufferedBytes: positiveInteger('streams.maxBufferedBytes', options.streams?.maxBufferedBytes, 4 * MIB),
    },
  };
}

/** What is fixed when the module is defined: the endpoint paths, the host-level documents and the scanned modules. */
export type McpResolvedPaths = Pick<McpResolvedOptions, 'path' | 'ssePath' | 'messagesPath' | 'explorerPath' | 'wellKnownRoot' | 'include'>;

/** Normalises and checks the module extras: the paths (they must not collide), `wellKnownRoot` and `include`. */
export function resolvePaths(extras: McpModuleExtras): McpResolvedPaths {
  return {
    ...resolveEndpointPaths(extras),
    wellKnownRoot: resolveFlag('wellKnownRoot', extras.wellKnownRoot ?? true),
    include: resolveInclude(extras.include),
  };
}

/** `include`: module classes (compared with the app's modules at boot, where an absent one fails it). */
function resolveInclude(include: McpModuleExtras['include']): McpResolvedPaths['include'] {
  if (include === undefined) return undefined;
  if (!Array.isArray(include) || include.some((module) => typeof module !== 'function'))
    throw new McpConfigurationError(
      McpMessages.invalidOption('include', 'must be an array of module classes, such as [WeatherModule] (a dynamic module: its class)'),
    );
  return [...include];
}

function resolveEndpointPaths(extras: McpModuleExtras): Omit<McpResolvedPaths, 'wellKnownRoot' | 'include'> {
  const path = normalizePath(extras.path ?? '/mcp', 'path');
  const ssePath = extras.ssePath === false ? false : normalizePath(extras.ssePath ?? '/sse', 'ssePath');
  const messagesPath = normalizePath(extras.messagesPath ?? '/messages', 'messagesPath');
  const used = [path, messagesPath, ...(ssePath ? [ssePath] : [])];
  if (new Set(used).size !== used.length)
    throw new McpConfigurationError(McpMessages.invalidOption('path', `, ssePath and messagesPath must differ (got ${used.join(', ')})`));
  return { path, ssePath, messagesPath, explorerPath: resolveExplorerPath(extras.explorer, path, used) };
}

/**
 * The explorer page's path (`<path>/explorer`), or `false` unless `explorer.enabled` is true. A given path is checked
 * even while the page is off, so a typo fails the boot that would have shown it. It may not take a route of the
 * endpoint: the MCP paths themselves, the job poll URLs under `<path>/jobs/` or the `/.well-known/` documents.
 */
function resolveExplorerPath(explorer: McpModuleExtras['explorer'], path: string, used: string[]): string | false {
  if (explorer === undefined) return false;
  if (explorer === null || typeof explorer !== 'object' || Array.isArray(explorer))
    throw new McpConfigurationError(McpMessages.invalidOption('explorer', 'must be an object such as { enabled: true }'));
  if (explorer.enabled !== undefined && typeof explorer.enabled !== 'boolean')
    throw new McpConfigurationError(McpMessages.invalidOption('explorer.enabled', `must be a boolean, got ${String(explorer.enabled)}`));
  const explorerPath = normalizePath(explorer.path ?? `${path}/explorer`, 'explorer.path');
  const taken = [...used, `${path}/jobs`, `${path}/server-card`, '/.well-known'].find(
    (route) => explorerPath === route || (!used.includes(route) && explorerPath.startsWith(`${route}/`)),
  );
  if (taken !== undefined)
    throw new McpConfigurationError(
      McpMessages.invalidOption(
        'explorer.path',
        `must not collide with the MCP route ${taken} (got ${explorerPath}); try "${path}/explorer"`,
      ),
    );
  return explorer.enabled === true ? explorerPath : false;
}

/** Checks the auth options for contradictions, so a half-configured server never starts open. */
function resolveAuth(auth: McpAuthOptions | undefined): McpAuthOptions {
  if (auth === undefined) return {};
  const jwt = auth.jwt;
  if (jwt) {
    const sources = [jwt.secret, jwt.publicKey, jwt.jwksUrl].filter((source) => source !== undefined);
    if (sources.length !== 1)
      throw new McpConfigurationError(McpMessages.invalidOption('auth.jwt', 'needs exactly one of secret, publicKey or jwksUrl'));
    if (jwt.secret !== undefined && (typeof jwt.secret !== 'string' || jwt.secret.length < 32)) {
      throw new McpConfigurationError(
        McpMessages.invalidOption('auth.jwt.secret', 'must be at least 32 characters (HS256 needs 256 bits of key)'),
      );
    }
    if (jwt.algorithms?.some((algorithm) => algorithm.toLowerCase() === 'none')) {
      throw new McpConfigurationError(McpMessages.invalidOption('auth.jwt.algorithms', 'must not contain "none"'));
    }
    if (jwt.secret !== undefined && jwt.algorithms?.some((algorithm) => !algorithm.startsWith('HS'))) {
      throw new McpConfigurationError(McpMessages.invalidOption('auth.jwt.algorithms', 'must be HMAC algorithms (HS256...) with a secret'));
    }
    if (jwt.requireExp !== undefined && typeof jwt.requireExp !== 'boolean')
      throw new McpConfigurationError(McpMessages.invalidOption('auth.jwt.requireExp', 'must be a boolean'));
    positiveInteger('auth.jwt.maxTokenLifetimeSec', jwt.maxTokenLifetimeSec, JWT_LIFETIME_DEFAULTS.maxTokenLifetimeSec);
    nonNegativeInteger('auth.jwt.clockToleranceSec', jwt.clockToleranceSec, JWT_LIFETIME_DEFAULTS.clockToleranceSec);
    if (jwt.jwksUrl !== undefined) publicUrl(jwt.jwksUrl, 'auth.jwt.jwksUrl');
    if (jwt.publicKey !== undefined) {
      try {
        createPublicKey(jwt.publicKey);
      } catch {
        throw new McpConfigurationError(McpMessages.invalidOption('auth.jwt.publicKey', 'is not a PEM public key'));
      }
    }
  }
  const keys = auth.apiKeys ?? [];
  keys.forEach((entry, index) => {
    if (typeof entry?.key !== 'string' || entry.key.length < 16)
      throw new McpConfigurationError(
        McpMessages.invalidOption(`auth.apiKeys[${index}].key`, 'must be a string of at least 16 characters'),
      );
    if (typeof entry.tenant !== 'string' || entry.tenant === '')
      throw new McpConfigurationError(McpMessages.invalidOption(`auth.apiKeys[${index}].tenant`, 'must be a non-empty string'));
  });
  if (new Set(keys.map((entry) => entry.key)).size !== keys.length)
    throw new McpConfigurationError(McpMessages.invalidOption('auth.apiKeys', 'contains the same key twice'));
  if (auth.authenticator && (auth.jwt || keys.length)) {
    throw new McpConfigurationError(
      McpMessages.invalidOption('auth.authenticator', 'replaces jwt and apiKeys; configure one or the other'),
    );
  }
  if (auth.authenticator && typeof auth.authenticator.authenticate !== 'function') {
    throw new McpConfigurationError(McpMessages.invalidOption('auth.authenticator', 'must have an authenticate(credentials) method'));
  }
  const metadata = auth.resourceMetadata;
  if (metadata) {
    publicUrl(metadata.resource, 'auth.resourceMetadata.resource');
    if (!Array.isArray(metadata.authorizationServers) || metadata.authorizationServers.length === 0) {
      throw new McpConfigurationError(
        McpMessages.invalidOption('auth.resourceMetadata.authorizationServers', 'must list at least one authorization server'),
      );
    }
  }
  if (!jwt) return auth;
  return {
    ...auth,
    jwt: {
      ...jwt,
      requireExp: jwt.requireExp ?? JWT_LIFETIME_DEFAULTS.requireExp,
      maxTokenLifetimeSec: jwt.maxTokenLifetimeSec ?? JWT_LIFETIME_DEFAULTS.maxTokenLifetimeSec,
      clockToleranceSec: jwt.clockToleranceSec ?? JWT_LIFETIME_DEFAULTS.clockToleranceSec,
    },
  };
}

/** The `requestState` of 2026-07-28 input rounds; a `secret` too short for HMAC-SHA256 fails the boot. */
function resolveRequestState(requestState: McpModuleOptions['requestState']): McpResolvedOptions['requestState'] {
  if (requestState !== undefined && (requestState === null || typeof requestState !== 'object')) {
    throw new McpConfigurationError(
      McpMessages.invalidOption('requestState', 'must be an object such as { secret: process.env.MCP_REQUEST_STATE_SECRET }'),
    );
  }
  const secret = requestState?.secret;
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < 32)) {
    // The value is a secret: name the option, never echo it.
    throw new McpConfigurationError(
      McpMessages.invalidOption('requestState.secret', 'must be a string of at least 32 characters (HMAC-SHA256 needs 256 bits of key)'),
    );
  }
  return { secret, ttlMs: positiveInteger('requestState.ttlMs', requestState?.ttlMs, 10 * 60_000) };
}

/** Which lists announce their changes (both eras); each is off unless set to true. */
function resolveListChanged(listChanged: McpModuleOptions['listChanged']): McpResolvedOptions['listChanged'] {
  if (listChanged !== undefined && (listChanged === null || typeof listChanged !== 'object')) {
    throw new McpConfigurationError(McpMessages.invalidOption('listChanged', 'must be an object such as { tools: true }'));
  }
  return { tools: listChanged?.tools === true, prompts: listChanged?.prompts === true, resources: listChanged?.resources === true };
}

/** `toolFilters`: provider classes; each must be a class (it is looked up in the container at boot). */
function resolveToolFilters(filters: McpModuleOptions['toolFilters']): McpResolvedOptions['toolFilters'] {
  if (filters === undefined) return [];
  if (!Array.isArray(filters) || filters.some((filter) => typeof filter !== 'function'))
    throw new McpConfigurationError(
      McpMessages.invalidOption('toolFilters', 'must be an array of provider classes implementing McpToolFilter'),
    );
  return [...filters];
}

function resolveFlag(option: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean')
    throw new McpConfigurationError(McpMessages.invalidOption(option, 'must be a boolean'));
  return value === true;
}

/** Tracing: on unless `enabled: false`; `enabled: true` makes a missing `@opentelemetry/api` a boot error. */
function resolveTracing(tracing: McpModuleOptions['tracing']): McpResolvedOptions['tracing'] {
  if (tracing !== undefined && (tracing === null || typeof tracing !== 'object' || Array.isArray(tracing)))
    throw new McpConfigurationError(McpMessages.invalidOption('tracing', 'must be an object such as { enabled: true }'));
  const enabled = tracing?.enabled;
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw new McpConfigurationError(McpMessages.invalidOption('tracing.enabled', `must be a boolean, got ${String(enabled)}`));
  return { enabled: enabled !== false, required: enabled === true };
}

/** The liveness lease: renewed well within its lifetime, or an instance would look dead between two renewals. */
function resolveInstanceLease(lease: McpModuleOptions['instanceLease']): McpResolvedOptions['instanceLease'] {
  const ttlMs = positiveInteger('instanceLease.ttlMs', lease?.ttlMs, 5_000);
  const renewMs = positiveInteger('instanceLease.renewMs', lease?.renewMs, Math.min(1_500, Math.floor(ttlMs / 3) || 1));
  if (renewMs >= ttlMs)
    throw new McpConfigurationError(McpMessages.invalidOption('instanceLease.renewMs', `must be below instanceLease.ttlMs (${ttlMs})`));
  return { ttlMs, renewMs };
}

/**
 * The Redis connection: exactly one of a redis:// or rediss:// URL and a cluster's startup nodes (checked here,
 * so a typo fails the boot, not a request).
 */
function resolveRedis(redis: McpModuleOptions['redis'], path: string): McpResolvedOptions['redis'] {
  if (redis === undefined) return undefined;
  if (!redis || typeof redis !== 'object')
    throw new McpConfigurationError(McpMessages.invalidOption('redis', 'must be an object such as { url: "redis://localhost:6379" }'));
  if (redis.keyPrefix !== undefined && typeof redis.keyPrefix !== 'string')
    throw new McpConfigurationError(McpMessages.invalidOption('redis.keyPrefix', 'must be a string'));
  const keyPrefix = redis.keyPrefix ?? defaultKeyPrefix(path);
  if ((redis.url === undefined) === (redis.cluster === undefined))
    throw new McpConfigurationError(
      McpMessages.invalidOption('redis', 'needs exactly one of url (one server) and cluster (a Redis Cluster), not both or neither'),
    );
  if (redis.cluster !== undefined) return { cluster: resolveRedisCluster(redis.cluster, keyPrefix), keyPrefix };
  let protocol: string | undefined;
  try {
    protocol = typeof redis.url === 'string' ? new URL(redis.url).protocol : undefined;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    // The URL may carry a password: name the option, never echo the value.
    throw new McpConfigurationError(
      McpMessages.invalidOption('redis.url', 'must be a redis:// or rediss:// URL such as "redis://localhost:6379"'),
    );
  }
  return { url: redis.url!, keyPrefix };
}

/**
 * The default `redis.keyPrefix`, one per server so two servers on one Redis never share sessions, streams or jobs:
 * `mcp:` at the default path `/mcp` (the keys of existing deployments), `mcp:<path>:` elsewhere (`mcp:admin/mcp:`).
 */
export function defaultKeyPrefix(path: string): string {
  return path === '/mcp' ? DEFAULT_REDIS_KEY_PREFIX : `${DEFAULT_REDIS_KEY_PREFIX}${path.slice(1)}:`;
}

/** `redis.cluster`: startup nodes as `{ host, port }`, and a key prefix that leaves the hash tags working. */
function resolveRedisCluster(cluster: unknown, keyPrefix: string): Required<McpRedisClusterOptions> {
  const example = 'such as { nodes: [{ host: "127.0.0.1", port: 7000 }] }';
  if (!cluster || typeof cluster !== 'object' || Array.isArray(cluster))
    throw new McpConfigurationError(McpMessages.invalidOption('redis.cluster', `must be an object ${example}`));
  const { nodes, options } = cluster as Partial<McpRedisClusterOptions>;
  if (!Array.isArray(nodes) || nodes.length === 0)
    throw new McpConfigurationError(McpMessages.invalidOption('redis.cluster.nodes', `must be a non-empty array ${example}`));
  nodes.forEach((node, index) => {
    const valid =
      typeof node === 'object' &&
      node !== null &&
      typeof node.host === 'string' &&
      node.host.length > 0 &&
      Number.isInteger(node.port) &&
      node.port > 0 &&
      node.port < 65_536;
    if (!valid)
      throw new McpConfigurationError(
        McpMessages.invalidOption(
          `redis.cluster.nodes[${index}]`,
          'must be { host: string, port: 1-65535 } such as { host: "127.0.0.1", port: 7000 }',
        ),
      );
  });
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options)))
    throw new McpConfigurationError(McpMessages.invalidOption('redis.cluster.options', 'must be an object (ioredis ClusterOptions)'));
  // Redis Cluster hashes the first {...} of a key: a prefix with a lone or empty brace would hide the tenant tags
  // that keep a script's keys on one slot (a complete tag puts every key on one slot: legal, but no spread).
  const open = keyPrefix.indexOf('{');
  const close = open < 0 ? -1 : keyPrefix.indexOf('}', open + 1);
  if (open >= 0 && close <= open + 1)
    throw new McpConfigurationError(
      McpMessages.invalidOption(
        'redis.keyPrefix',
        'must hold no "{" or "}" with redis.cluster (or one complete {tag}, which puts every key on one slot)',
      ),
    );
  return { nodes: nodes.map(({ host, port }) => ({ host, port })), options: { ...(options ?? {}) } };
}

function stringList(option: string, value: string[] | undefined): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw new McpConfigurationError(McpMessages.invalidOption(option, 'must be an array of strings'));
  return [...value];
}

function publicUrl(value: string | undefined, option = 'publicUrl'): string | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    throw new McpConfigurationError(McpMessages.invalidOption(option, `must be an absolute http(s) URL, got "${value}"`));
  }
}

function oneOf<T extends string>(option: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value))
    throw new McpConfigurationError(McpMessages.invalidOption(option, `must be one of ${allowed.join(', ')}, got "${String(value)}"`));
  return value;
}

/** `mcp`, `/mcp/` → `/mcp`; the path must be a plain absolute path. */
export function normalizePath(path: string, option = 'path'): string {
  const value = typeof path === 'string' ? `/${path.trim().replace(/^\/+|\/+$/g, '')}` : '';
  if (value === '/' || !/^\/[A-Za-z0-9._~\-/]+$/.test(value)) {
    throw new McpConfigurationError(McpMessages.invalidOption(option, `must be a non-root URL path such as "/mcp", got "${String(path)}"`));
  }
  return value;
}

function positiveInteger(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new McpConfigurationError(McpMessages.invalidOption(option, `must be a positive integer, got ${String(value)}`));
  return value;
}

function nonNegativeInteger(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0)
    throw new McpConfigurationError(McpMessages.invalidOption(option, `must be an integer of at least 0, got ${String(value)}`));
  return value;
}

/**
 * The `metrics` option: on once given (unless `enabled: false`). Its `path` may not take a route of the endpoint
 * (the MCP paths, anything under `<path>/`, the explorer page, the `/.well-known/` documents), and a `registry`
 * must be a prom-client `Registry`.
 */
function resolveMetrics(metrics: McpModuleOptions['metrics'], paths: McpResolvedPaths): McpResolvedMetricsOptions {
  if (metrics === undefined) return { enabled: false, tenantLabel: false };
  if (metrics === null || typeof metrics !== 'object' || Array.isArray(metrics))
    throw new McpConfigurationError(McpMessages.invalidOption('metrics', 'must be an object such as { path: "/metrics" }'));
  for (const key of ['enabled', 'tenantLabel'] as const) {
    if (metrics[key] !== undefined && typeof metrics[key] !== 'boolean')
      throw new McpConfigurationError(McpMessages.invalidOption(`metrics.${key}`, `must be a boolean, got ${String(metrics[key])}`));
  }
  const registry = metrics.registry;
  if (
    registry !== undefined &&
    (registry === null ||
      typeof registry !== 'object' ||
      !['metrics', 'registerMetric', 'getSingleMetric', 'removeSingleMetric'].every(
        (method) => typeof (registry as unknown as Record<string, unknown>)[method] === 'function',
      ))
  )
    throw new McpConfigurationError(McpMessages.invalidOption('metrics.registry', 'must be a prom-client Registry (new Registry())'));
  let path: string | undefined;
  if (metrics.path !== undefined) {
    path = normalizePath(metrics.path, 'metrics.path');
    const exact = [paths.path, paths.messagesPath, paths.ssePath, paths.explorerPath].filter((route): route is string => route !== false);
    const taken = exact.find((route) => route === path) ?? [paths.path, '/.well-known'].find((route) => path!.startsWith(`${route}/`));
    if (taken !== undefined)
      throw new McpConfigurationError(
        McpMessages.invalidOption('metrics.path', `must not collide with the MCP route ${taken} (got ${path}); try "/metrics"`),
      );
  }
  return { enabled: metrics.enabled !== false, path, registry, tenantLabel: metrics.tenantLabel === true };
}
