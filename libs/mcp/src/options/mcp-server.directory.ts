import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import type { McpResolvedOptions } from './mcp-module-options.interface.js';
import { McpServersMessages } from './mcp-servers.messages.js';
import { routesOverlap, serverRoutes, type McpServerRoute } from './server-routes.js';

/** One server of the app as the directory checks it. */
interface McpDefinedServer {
  readonly name: string;
  readonly path: string;
  readonly routes: readonly McpServerRoute[];
  /** `host:port` of each Redis node it connects to, and its key prefix; undefined without `redis`. */
  readonly keySpace?: { readonly nodes: readonly string[]; readonly keyPrefix: string };
}

/** The MCP servers of one app, added before any route is mapped: two on one route or Redis key space fail the boot. */
export class McpServerDirectory {
  private readonly servers: McpDefinedServer[] = [];
  private readonly complete: Promise<void>;
  private settle!: (error?: Error) => void;

  /** `expected`: how many servers the app imports, known once Nest has scanned its modules. */
  constructor(private readonly expected: number) {
    this.complete = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
    // Only connections wait on it: a failed boot must not add an unhandled rejection to its error.
    this.complete.catch(() => undefined);
    if (expected <= 0) this.settle();
  }

  /** Checks `options`' server (`upstreamAuth`: it maps the per-user sign-in routes) against those added before it, then adds it. */
  add(options: McpResolvedOptions, upstreamAuth = false): void {
    const server: McpDefinedServer = {
      name: options.name,
      path: options.path,
      routes: serverRoutes(options, upstreamAuth),
      keySpace: keySpaceOf(options),
    };
    try {
      for (const other of this.servers) {
        assertNoSharedRoute(other, server);
        assertNoSharedKeySpace(other, server);
      }
    } catch (error) {
      this.settle(error as Error);
      throw error;
    }
    this.servers.push(server);
    if (this.servers.length >= this.expected) this.settle();
  }

  /** Resolves once every server is added and none clashes; Redis connections wait for it (a half-booted app cannot close). */
  allAdded(): Promise<void> {
    return this.complete;
  }
}

function assertNoSharedRoute(first: McpDefinedServer, second: McpDefinedServer): void {
  for (const route of second.routes) {
    const taken = first.routes.find((candidate) => routesOverlap(candidate.route, route.route));
    if (taken) throw new McpConfigurationError(McpServersMessages.routeCollision(first, taken, second, route));
  }
}

function assertNoSharedKeySpace(first: McpDefinedServer, second: McpDefinedServer): void {
  if (!first.keySpace || !second.keySpace || first.keySpace.keyPrefix !== second.keySpace.keyPrefix) return;
  // Pub/sub ignores the database number: one node in common is one channel space, whatever the /db of each URL.
  const shared = second.keySpace.nodes.find((node) => first.keySpace!.nodes.includes(node));
  if (shared !== undefined)
    throw new McpConfigurationError(McpServersMessages.sharedKeySpace(first, second, second.keySpace.keyPrefix, shared));
}

/** The Redis nodes of a server, as `host:port` (never the URL: it may hold a password). */
function keySpaceOf(options: McpResolvedOptions): McpDefinedServer['keySpace'] {
  const redis = options.redis;
  if (!redis) return undefined;
  const nodes = redis.cluster
    ? redis.cluster.nodes.map(({ host, port }) => `${host.toLowerCase()}:${port}`)
    : [hostAndPort(new URL(redis.url))];
  return { nodes, keyPrefix: redis.keyPrefix };
}

function hostAndPort(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port || '6379'}`;
}

/** `factory`, called once the app's servers are checked (only with `redis`: memory stores open no connection). */
export function afterServerChecks<A extends [McpResolvedOptions, ...unknown[]], R>(
  factory: (...args: A) => R | Promise<R>,
): (servers: McpServerDirectory, ...args: A) => Promise<R> {
  return async (servers, ...args) => {
    if (args[0].redis) await servers.allAdded();
    return factory(...args);
  };
}
