import type { McpExplorerOptions } from '@nest-mcp/core';

/**
 * The explorer page at `/mcp/explorer`: on unless `NODE_ENV=production` (it shows every tool to whoever can open it;
 * calling one still needs the credentials the endpoint asks for). `main.ts` prints its URL at boot.
 */
export function explorerFromEnv(env: NodeJS.ProcessEnv): Required<McpExplorerOptions> {
  return { enabled: env.NODE_ENV !== 'production', path: '/mcp/explorer' };
}
