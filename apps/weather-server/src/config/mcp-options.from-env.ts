import type { McpApiKey, McpModuleOptions } from '@nest-mcp/core';
import { Registry } from 'prom-client';

/** Scopes a bare API key (no scopes listed) gets in this sample. */
const DEFAULT_KEY_SCOPES = ['weather:read', 'weather:write'];

/**
 * The weather server's MCP options from the environment:
 * - `MCP_JWT_SECRET`: HS256 secret for Bearer JWTs (tenant from `tenant_id` or `sub`, scopes from `scope`/`scp`);
 * - `MCP_API_KEYS`: comma-separated `key`, `key|tenant` or `key|tenant|scope1 scope2` entries;
 * - `MCP_PUBLIC_URL`: public base URL for the `endpoint` event of the 2024-11-05 HTTP+SSE transport;
 * - `MCP_ALLOWED_ORIGINS`: comma-separated browser origins besides localhost;
 * - `MCP_SERVER_CARD_NAME`: reverse-DNS `name` of the Server Card (`com.example/weather`; default: from the host);
 * - `REDIS_URL`: share sessions, stream events, jobs and idempotency keys with other instances through Redis;
 * - `MCP_JOBS_LOCK_DURATION_MS`, `MCP_JOBS_STALLED_INTERVAL_MS`: how soon another instance takes over the job of
 *   an instance that died (`jobs.lockDurationMs`, `jobs.stalledIntervalMs`; with `REDIS_URL`).
 * Prometheus metrics are served at `GET /metrics` (no MCP auth: keep it inside the network), in a registry of this
 * app's own, so several apps in one process (the e2e tests) do not collide.
 * Neither credential variable set: open access as tenant `default` (the library warns on stderr).
 */
export function mcpOptionsFromEnv(env: NodeJS.ProcessEnv): McpModuleOptions {
  const apiKeys = parseApiKeys(env.MCP_API_KEYS);
  return {
    name: 'weather-server',
    version: '1.0.0',
    title: 'Weather',
    instructions: 'Weather for about seventy cities worldwide. City names may be English or Chinese.',
    publicUrl: env.MCP_PUBLIC_URL || undefined,
    serverCard: {
      description: 'Current weather, forecasts and alerts for about seventy cities worldwide',
      ...(env.MCP_SERVER_CARD_NAME && { name: env.MCP_SERVER_CARD_NAME }),
    },
    trustProxy: env.MCP_TRUST_PROXY === 'true',
    allowedOrigins: env.MCP_ALLOWED_ORIGINS?.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    ...(env.REDIS_URL && { redis: { url: env.REDIS_URL } }),
    jobs: {
      ...(env.MCP_JOBS_LOCK_DURATION_MS && { lockDurationMs: Number(env.MCP_JOBS_LOCK_DURATION_MS) }),
      ...(env.MCP_JOBS_STALLED_INTERVAL_MS && { stalledIntervalMs: Number(env.MCP_JOBS_STALLED_INTERVAL_MS) }),
    },
    metrics: { path: '/metrics', registry: new Registry() },
    auth: {
      ...(env.MCP_JWT_SECRET && { jwt: { secret: env.MCP_JWT_SECRET } }),
      ...(apiKeys.length > 0 && { apiKeys }),
    },
  };
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
