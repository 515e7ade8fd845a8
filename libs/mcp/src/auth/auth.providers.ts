import type { Provider } from '@nestjs/common';
import { McpOAuthBridgeHost } from './bridge/oauth-bridge.host.js';
import { McpAuthService } from './mcp-auth.service.js';

/** Credentials in: the authentication service and the OAuth bridge's host (its routes are the transports'). */
export const MCP_AUTH_PROVIDERS: Provider[] = [McpAuthService, McpOAuthBridgeHost];
