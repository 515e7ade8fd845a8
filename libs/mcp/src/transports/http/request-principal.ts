import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';

/** Where authentication leaves the principal on the request, for the transports to read. */
export const MCP_PRINCIPAL_REQUEST_KEY = 'mcpPrincipal';

export function principalOf(request: IncomingMessage): McpPrincipal | undefined {
  return (request as unknown as Record<string, McpPrincipal | undefined>)[MCP_PRINCIPAL_REQUEST_KEY];
}
