import type { McpOutboundAuth, McpUserAuthorizationOptions } from './mcp-outbound-auth.interface.js';

/** Whether an upstream's `auth` is per-user authorization (`{ authorizationCode }`): the caller's own credential, from a browser flow. */
export function isMcpAuthorizationCodeAuth(
  auth: McpOutboundAuth | object | undefined,
): auth is { authorizationCode: McpUserAuthorizationOptions } {
  return typeof auth === 'object' && auth !== null && 'authorizationCode' in auth;
}
