import { isObjectLiteral } from '../core/plain-object.js';
import { closestName } from './closest-name.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../core/errors/mcp.messages.js';

/** Marks an option that holds a list of plain objects, each with these keys (`auth.apiKeys[i]`). */
class EachItem {
  constructor(readonly keys: OptionKeys) {}
}

/** The keys one level of the options may have: a value (`true`), a nested object's keys, or a list of objects. */
type OptionKeys = { readonly [key: string]: true | OptionKeys | EachItem };

/** Every key `McpModule.forRoot()` accepts, one table per level (the extras path, ssePath... arrive here too). */
const MCP_OPTION_KEYS: OptionKeys = {
  name: true,
  version: true,
  title: true,
  description: true,
  instructions: true,
  toolTimeoutMs: true,
  pageSize: true,
  maxBodyBytes: true,
  publicUrl: true,
  trustProxy: true,
  allowedOrigins: true,
  allowedHosts: true,
  toolFilters: true,
  hideGuardedTools: true,
  path: true,
  isGlobal: true,
  ssePath: true,
  messagesPath: true,
  explorer: { enabled: true, path: true },
  include: true,
  wellKnownRoot: true,
  sessions: { mode: true, idleTtlMs: true },
  streams: { keepAliveMs: true, maxEventsPerStream: true, maxEventBytesPerStream: true, retryMs: true, maxBufferedBytes: true },
  auth: {
    jwt: {
      secret: true,
      publicKey: true,
      jwksUrl: true,
      algorithms: true,
      issuer: true,
      audience: true,
      clockToleranceSec: true,
      tenantClaim: true,
      requireExp: true,
      maxTokenLifetimeSec: true,
    },
    apiKeys: new EachItem({ key: true, tenant: true, scopes: true, subject: true }),
    // The user's own object: its members are its business.
    authenticator: true,
    resourceMetadata: { resource: true, authorizationServers: true, scopesSupported: true, resourceName: true },
  },
  limits: {
    maxJsonDepth: true,
    maxJsonCollectionSize: true,
    bodyTimeoutMs: true,
    maxConcurrentCallsPerTenant: true,
    rateLimit: { limit: true, windowMs: true },
    maxStreamsPerTenant: true,
    maxSessionsPerTenant: true,
    maxStoredKeysPerTenant: true,
  },
  // cluster.options is ioredis' own object: its members are its business.
  redis: { url: true, keyPrefix: true, cluster: { nodes: new EachItem({ host: true, port: true }), options: true } },
  instanceLease: { ttlMs: true, renewMs: true },
  jobs: {
    resultTtlMs: true,
    lockDurationMs: true,
    stalledIntervalMs: true,
    maxStalledCount: true,
    concurrency: true,
    maxQueuedPerTenant: true,
  },
  shutdown: { graceMs: true },
  idempotency: { ttlMs: true, maxKeysPerTenant: true },
  requestState: { secret: true, ttlMs: true },
  listChanged: { tools: true, prompts: true, resources: true },
  // registry: the user's prom-client Registry, passed as it is.
  metrics: { enabled: true, path: true, registry: true, tenantLabel: true },
  serverCard: {
    enabled: true,
    name: true,
    description: true,
    websiteUrl: true,
    repository: { url: true, source: true, subfolder: true, id: true },
    icons: new EachItem({ src: true, mimeType: true, sizes: true, theme: true }),
    maxAgeSec: true,
  },
  tracing: { enabled: true },
};

/** Keys of earlier releases that are gone, each with what replaced it (checked before the did-you-mean). */
const REMOVED_OPTION_KEYS: Readonly<Record<string, string>> = {
  modern:
    'was split into "requestState" ({ secret, ttlMs }: was modern.requestStateSecret and modern.requestStateTtlMs) and "listChanged" ({ tools, prompts, resources }: was modern.listChanged)',
};

/**
 * Refuses a key no table knows (`sesions`, `limits.maxSesionsPerTenant`), naming its path and the nearest valid
 * key: a misspelt option would otherwise boot silently with its default. Only plain objects are checked; a class
 * instance (a user's authenticator, a config object) is the user's own and passes as it is.
 */
export function assertKnownOptionKeys(options: object): void {
  checkLevel(options, MCP_OPTION_KEYS, '');
}

function checkLevel(value: object, keys: OptionKeys, path: string): void {
  for (const [key, member] of Object.entries(value)) {
    if (path === '' && Object.hasOwn(REMOVED_OPTION_KEYS, key))
      throw new McpConfigurationError(McpMessages.removedOption(key, REMOVED_OPTION_KEYS[key]));
    const known = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (known === undefined) throw unknownKey(path, key, Object.keys(keys));
    if (known instanceof EachItem) {
      if (Array.isArray(member))
        member.forEach((item, index) => isObjectLiteral(item) && checkLevel(item, known.keys, `${path}${key}[${index}].`));
    } else if (known !== true && isObjectLiteral(member)) {
      checkLevel(member, known, `${path}${key}.`);
    }
  }
}

function unknownKey(path: string, key: string, known: string[]): McpConfigurationError {
  // Bounded: the key may be anything a config file held.
  const closest = closestName(key.slice(0, 100), known);
  return new McpConfigurationError(
    McpMessages.unknownOption(
      `${path}${key}`,
      closest === undefined ? undefined : `${path}${closest}`,
      known.map((name) => `${path}${name}`),
    ),
  );
}
