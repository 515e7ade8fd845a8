import type { McpModuleOptions } from '@nest-mcp/core';
import { Registry } from 'prom-client';
import { GatewayEnvError } from './gateway-env.error.js';
import { upstreamsFromEnv, type GatewayUpstreams } from './upstreams.from-env.js';

/** The Nest HTTP adapters the gateway runs on (`HTTP_ADAPTER`). */
export const HTTP_ADAPTERS = ['express', 'fastify'] as const;
export type HttpAdapterName = (typeof HTTP_ADAPTERS)[number];

/** Everything the gateway reads from its environment, checked before Nest boots. */
export interface GatewayConfig {
  port: number;
  host: string;
  adapter: HttpAdapterName;
  upstreams: GatewayUpstreams;
  mcp: McpModuleOptions;
  explorer: { enabled: boolean; path: string };
}

/**
 * - `PORT` (3200), `HOST` (127.0.0.1), `HTTP_ADAPTER` (express or fastify);
 * - `MCP_JWT_SECRET`: HS256 secret of the callers' JWTs (tenant from `tenant_id` or `sub`, scopes from `scope`);
 *   unset: open access as tenant `default` (the library warns);
 * - `REDIS_URL` (optional): sessions, limits and idempotency keys shared with other gateway instances;
 * - `GATEWAY_UPSTREAMS`: the servers behind it (./upstreams.from-env.ts).
 * Prometheus metrics at `GET /metrics` (no MCP auth: keep it inside the network); the explorer at `/mcp/explorer`
 * unless `NODE_ENV=production`. A malformed value throws a GatewayEnvError naming it.
 */
export function gatewayConfigFromEnv(env: NodeJS.ProcessEnv): GatewayConfig {
  const port = Number(env.PORT ?? 3200);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new GatewayEnvError(`PORT=${env.PORT} is not a port number`);
  const adapter = (env.HTTP_ADAPTER || 'express') as HttpAdapterName;
  if (!HTTP_ADAPTERS.includes(adapter)) {
    throw new GatewayEnvError(`HTTP_ADAPTER=${env.HTTP_ADAPTER} is not an HTTP adapter; use ${HTTP_ADAPTERS.join(' or ')}`);
  }
  const upstreams = upstreamsFromEnv(env.GATEWAY_UPSTREAMS, env);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    adapter,
    upstreams,
    explorer: { enabled: env.NODE_ENV !== 'production', path: '/mcp/explorer' },
    mcp: {
      name: 'mcp-gateway',
      version: '1.0.0',
      title: 'MCP gateway',
      instructions: 'Tools, prompts and resources of several MCP servers, each named after its server (weather_get_forecast).',
      sources: {
        upstreams: upstreams.mcp,
        // OpenAPI documents are read at boot: their tools are `<name>_<operation>` like an MCP upstream's.
        openapi: upstreams.openapi.map(({ openapi, ...source }) => ({ ...source, document: openapi })),
      },
      observability: { metrics: { path: '/metrics', registry: new Registry() } },
      ...(env.REDIS_URL && { redis: { url: env.REDIS_URL } }),
      auth: { ...(env.MCP_JWT_SECRET && { jwt: { secret: env.MCP_JWT_SECRET } }) },
    },
  };
}
