import type { McpModuleOptions } from '@nest-mcp/core';
import { mcpOptionsFromEnv } from './mcp-options.from-env.js';

/**
 * The admin server's options: its own name, the main server's credentials, origins, public URL and Redis (its
 * default key prefix differs by path, so its sessions are its own), no metrics endpoint (`/metrics` is the main
 * server's) and no server card of its own beyond `/admin/mcp/server-card`.
 */
export function adminMcpOptionsFromEnv(env: NodeJS.ProcessEnv): McpModuleOptions {
  const { auth, http, redis } = mcpOptionsFromEnv(env);
  return {
    name: 'weather-admin',
    version: '1.0.0',
    title: 'Weather admin',
    instructions: "Administration of the caller's weather data. Every tool needs the weather:admin scope.",
    auth,
    http,
    ...(redis && { redis }),
    serverCard: { description: "Administration of the caller's weather alerts" },
  };
}
