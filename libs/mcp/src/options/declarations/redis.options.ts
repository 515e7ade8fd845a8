import type {
  McpInstanceLeaseOptions,
  McpRedisClusterNode,
  McpRedisClusterOptions,
  McpRedisOptions,
} from '../mcp-module-options.interface.js';
import { group, invalidOption, list, option, optional, type ResolvedOption } from '../option.builder.js';
import { checked, given, positiveInteger } from '../option.values.js';
import type { McpResolvedPaths } from './endpoint.options.js';

/** The default `keyPrefix`. */
export const DEFAULT_REDIS_KEY_PREFIX = 'mcp:';

const CLUSTER_EXAMPLE = 'such as { nodes: [{ host: "127.0.0.1", port: 7000 }] }';

/** One startup node, checked whole (the message shows the shape). */
const NODE = group<McpRedisClusterNode>()(
  { host: given<string>(), port: given<number>() },
  {
    finish: ({ host, port = 0 }, at) => {
      if (typeof host !== 'string' || host.length === 0 || !Number.isInteger(port) || port <= 0 || port >= 65_536)
        throw invalidOption(at, 'must be { host: string, port: 1-65535 } such as { host: "127.0.0.1", port: 7000 }');
      return { host, port };
    },
  },
);

/** `redis.cluster`: startup nodes and ioredis' own options (its members are its business). */
const CLUSTER = group<McpRedisClusterOptions>()(
  {
    nodes: list(NODE, `must be a non-empty array ${CLUSTER_EXAMPLE}`, { required: true }),
    options: option<Record<string, unknown>, Record<string, unknown>>((options, at) => {
      if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options)))
        throw invalidOption(at, 'must be an object (ioredis ClusterOptions)');
      return { ...options };
    }),
  },
  { object: CLUSTER_EXAMPLE },
);

/** `redis.instanceLease`: renewed well within its lifetime, or an instance would look dead between two renewals. */
export const MCP_INSTANCE_LEASE_OPTIONS = group<McpInstanceLeaseOptions>()(
  { ttlMs: positiveInteger(5_000), renewMs: positiveInteger(undefined) },
  {
    finish: ({ ttlMs, renewMs = Math.min(1_500, Math.floor(ttlMs / 3) || 1) }, at) => {
      if (renewMs >= ttlMs) throw invalidOption(`${at}.renewMs`, `must be below ${at}.ttlMs (${ttlMs})`);
      return { ttlMs, renewMs };
    },
  },
);

/** The lease without `redis` (one instance, nothing written): what the checks between instances' holders wait for. */
export const DEFAULT_INSTANCE_LEASE = MCP_INSTANCE_LEASE_OPTIONS.resolve(undefined, 'redis.instanceLease', undefined);

/** The `redis` option once checked: exactly one of `url` and `cluster`, and the key prefix. */
export type McpResolvedRedisOptions = (
  { url: string; cluster?: undefined } | { url?: undefined; cluster: Required<McpRedisClusterOptions> }
) & {
  keyPrefix: string;
  instanceLease: ResolvedOption<typeof MCP_INSTANCE_LEASE_OPTIONS>;
};

/** `redis`: exactly one of a redis:// or rediss:// URL and a cluster (checked here, so a typo fails the boot, not a request). */
export const MCP_REDIS_OPTIONS = optional(
  group<McpRedisOptions, McpResolvedPaths>()(
    {
      // The URL may carry a password: the message names the option, never the value.
      url: checked<string>(
        (url) => URL.canParse(url) && ['redis:', 'rediss:'].includes(new URL(url).protocol),
        'must be a redis:// or rediss:// URL such as "redis://localhost:6379"',
      ),
      keyPrefix: option<string, string, McpResolvedPaths>((keyPrefix, at, paths) => {
        if (keyPrefix !== undefined && typeof keyPrefix !== 'string') throw invalidOption(at, 'must be a string');
        return keyPrefix ?? defaultKeyPrefix(paths.path);
      }),
      cluster: optional(CLUSTER),
      instanceLease: MCP_INSTANCE_LEASE_OPTIONS,
    },
    {
      object: 'such as { url: "redis://localhost:6379" }',
      finish: ({ url, keyPrefix, cluster, instanceLease }, at): McpResolvedRedisOptions => {
        if ((url === undefined) === (cluster === undefined))
          throw invalidOption(at, 'needs exactly one of url (one server) and cluster (a Redis Cluster), not both or neither');
        if (cluster === undefined) return { url: url!, keyPrefix, instanceLease };
        // Redis Cluster hashes the first {...} of a key: a prefix with a lone or empty brace would hide the tenant tags
        // that keep a script's keys on one slot (a complete tag puts every key on one slot: legal, but no spread).
        const open = keyPrefix.indexOf('{');
        if (open >= 0 && keyPrefix.indexOf('}', open + 1) <= open + 1)
          throw invalidOption(
            `${at}.keyPrefix`,
            'must hold no "{" or "}" with redis.cluster (or one complete {tag}, which puts every key on one slot)',
          );
        return { cluster, keyPrefix, instanceLease };
      },
    },
  ),
);

/** The default `redis.keyPrefix`, one per server: `mcp:` at `/mcp` (existing deployments' keys), else `mcp:<path>:`. */
export function defaultKeyPrefix(path: string): string {
  return path === '/mcp' ? DEFAULT_REDIS_KEY_PREFIX : `${DEFAULT_REDIS_KEY_PREFIX}${path.slice(1)}:`;
}
