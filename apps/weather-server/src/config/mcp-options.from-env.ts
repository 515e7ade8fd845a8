import { McpConfigurationError, type McpApiKey, type McpModuleOptions, type McpOAuthOptions, type McpRedisOptions } from '@nest-mcp/core';
import { Registry } from 'prom-client';
import { WEATHER_SKILLS_FOLDER } from './skills-folder.js';

/** Scopes a bare API key (no scopes listed) gets in this sample. */
const DEFAULT_KEY_SCOPES = ['weather:read', 'weather:write'];

/**
 * The weather server's MCP options from the environment:
 * - `MCP_JWT_SECRET`: HS256 secret for Bearer JWTs (tenant from `tenant_id` or `sub`, scopes from `scope`/`scp`);
 * - `MCP_API_KEYS`: comma-separated `key`, `key|tenant` or `key|tenant|scope1 scope2` entries;
 * - `MCP_OAUTH_ISSUER`: an OAuth 2.1 authorization server's issuer URL (its metadata is read at boot); with it
 *   `MCP_OAUTH_AUDIENCE` (default: this server's MCP URL, `MCP_PUBLIC_URL` or `http://HOST:PORT`, then `/mcp`),
 *   `MCP_OAUTH_TENANT_CLAIM` (default `tenant_id`, else `sub`), and `MCP_OAUTH_INTROSPECTION_CLIENT_ID` /
 *   `MCP_OAUTH_INTROSPECTION_CLIENT_SECRET` (both: opaque tokens are introspected);
 * - `MCP_PUBLIC_URL`: public base URL for the `endpoint` event of the 2024-11-05 HTTP+SSE transport;
 * - `MCP_ALLOWED_ORIGINS`: comma-separated browser origins besides localhost;
 * - `MCP_SERVER_CARD_NAME`: reverse-DNS `name` of the Server Card (`com.example/weather`; default: from the host);
 * - `REDIS_URL`: share sessions, stream events, jobs and idempotency keys with other instances through Redis;
 * - `REDIS_CLUSTER_NODES`: the same through a Redis Cluster, `host:port,host:port` (some of its masters; the
 *   others are discovered); mutually exclusive with `REDIS_URL`;
 * - `MCP_JOBS_LOCK_DURATION_MS`, `MCP_JOBS_STALLED_INTERVAL_MS`: how soon another instance takes over the job of
 *   an instance that died (`jobs.lockDurationMs`, `jobs.stalledIntervalMs`; with `REDIS_URL`).
 * - `MCP_SHUTDOWN_GRACE_MS`: how long SIGTERM lets in-flight calls and jobs finish (`shutdown.graceMs`, 10 000).
 * Prometheus metrics are served at `GET /metrics` (no MCP auth: keep it inside the network), in a registry of this
 * app's own, so several apps in one process (the e2e tests) do not collide.
 * No credential variable set (`MCP_JWT_SECRET`, `MCP_API_KEYS`, `MCP_OAUTH_ISSUER`; any may be combined): open access as tenant `default` (the library warns on stderr).
 */
export function mcpOptionsFromEnv(env: NodeJS.ProcessEnv): McpModuleOptions {
  const apiKeys = parseApiKeys(env.MCP_API_KEYS);
  return {
    name: 'weather-server',
    version: '1.0.0',
    title: 'Weather',
    instructions: 'Weather for about seventy cities worldwide. City names may be English or Chinese.',
    http: {
      publicUrl: env.MCP_PUBLIC_URL || undefined,
      trustProxy: env.MCP_TRUST_PROXY === 'true',
      allowedOrigins: env.MCP_ALLOWED_ORIGINS?.split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    },
    serverCard: {
      description: 'Current weather, forecasts and alerts for about seventy cities worldwide',
      ...(env.MCP_SERVER_CARD_NAME && { name: env.MCP_SERVER_CARD_NAME }),
    },
    // The Agent Skills of apps/weather-server/skills (weather-briefing), over skills/list, skills/get, resources/read.
    sources: { skills: [WEATHER_SKILLS_FOLDER] },
    ...redisFromEnv(env),
    jobs: {
      ...(env.MCP_JOBS_LOCK_DURATION_MS && { lockDurationMs: Number(env.MCP_JOBS_LOCK_DURATION_MS) }),
      ...(env.MCP_JOBS_STALLED_INTERVAL_MS && { stalledIntervalMs: Number(env.MCP_JOBS_STALLED_INTERVAL_MS) }),
    },
    ...(env.MCP_SHUTDOWN_GRACE_MS && { shutdown: { graceMs: Number(env.MCP_SHUTDOWN_GRACE_MS) } }),
    observability: { metrics: { path: '/metrics', registry: new Registry() } },
    auth: {
      ...(env.MCP_JWT_SECRET && { jwt: { secret: env.MCP_JWT_SECRET } }),
      ...oauthFromEnv(env),
      ...(apiKeys.length > 0 && { apiKeys }),
    },
  };
}

/** What is wrong with the `MCP_OAUTH_*` variables, as one line for stderr; undefined when nothing. */
export function oauthEnvProblem(env: NodeJS.ProcessEnv): string | undefined {
  try {
    oauthFromEnv(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `MCP_OAUTH_*`: this server as a resource server of an authorization server; `{}` without `MCP_OAUTH_ISSUER`. */
export function oauthFromEnv(env: NodeJS.ProcessEnv): { oauth?: McpOAuthOptions } {
  const issuer = env.MCP_OAUTH_ISSUER || undefined;
  if (!issuer) return {};
  const clientId = env.MCP_OAUTH_INTROSPECTION_CLIENT_ID || undefined;
  const clientSecret = env.MCP_OAUTH_INTROSPECTION_CLIENT_SECRET || undefined;
  if (Boolean(clientId) !== Boolean(clientSecret))
    throw new McpConfigurationError(
      'MCP_OAUTH_INTROSPECTION_CLIENT_ID and MCP_OAUTH_INTROSPECTION_CLIENT_SECRET go together; set both to introspect opaque tokens, or neither.',
    );
  const base = env.MCP_PUBLIC_URL || `http://${env.HOST || '127.0.0.1'}:${env.PORT || 3000}`;
  return {
    oauth: {
      issuer,
      resource: `${base.replace(/\/+$/, '')}/mcp`,
      ...(env.MCP_OAUTH_AUDIENCE && { audience: env.MCP_OAUTH_AUDIENCE }),
      ...(env.MCP_OAUTH_TENANT_CLAIM && { tenantClaim: env.MCP_OAUTH_TENANT_CLAIM }),
      ...(clientId && clientSecret && { introspection: { clientId, clientSecret } }),
    },
  };
}

/** What is wrong with `REDIS_URL` / `REDIS_CLUSTER_NODES`, as one line for stderr (main.ts exits 1 on it); undefined when nothing. */
export function redisEnvProblem(env: NodeJS.ProcessEnv): string | undefined {
  try {
    redisFromEnv(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * `REDIS_URL` or `REDIS_CLUSTER_NODES` (never both: two instances reading different ones would be two servers); the
 * alert store (AlertsModule) connects to the same target.
 */
export function redisFromEnv(env: NodeJS.ProcessEnv): { redis?: McpRedisOptions } {
  const url = env.REDIS_URL || undefined;
  const nodes = env.REDIS_CLUSTER_NODES?.trim() || undefined;
  if (url && nodes)
    throw new McpConfigurationError(
      'REDIS_URL and REDIS_CLUSTER_NODES are both set; set only one (REDIS_CLUSTER_NODES for a Redis Cluster).',
    );
  if (url) return { redis: { url } };
  if (!nodes) return {};
  return { redis: { cluster: { nodes: nodes.split(',').map(parseClusterNode) } } };
}

/** `host:port` (the port after the last ':', so `[::1]:7000` works); a malformed entry fails the boot naming it. */
function parseClusterNode(entry: string): { host: string; port: number } {
  const trimmed = entry.trim();
  const colon = trimmed.lastIndexOf(':');
  const host = trimmed.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const port = Number(trimmed.slice(colon + 1));
  if (colon <= 0 || !host || !Number.isInteger(port) || port < 1 || port > 65_535)
    throw new McpConfigurationError(
      `REDIS_CLUSTER_NODES: "${trimmed}" is not host:port; expected e.g. REDIS_CLUSTER_NODES=10.0.0.1:6379,10.0.0.2:6379.`,
    );
  return { host, port };
}

function parseApiKeys(value: string | undefined): McpApiKey[] {
  if (!value) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [key, tenant = 'default', scopes] = entry.split('|');
      return { key, tenant, scopes: scopes ? scopes.split(/\s+/).filter(Boolean) : DEFAULT_KEY_SCOPES };
    });
}
