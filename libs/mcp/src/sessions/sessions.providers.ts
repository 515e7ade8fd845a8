import type { Provider } from '@nestjs/common';
import { McpInstanceLease } from './mcp-instance-lease.service.js';
import { McpSessionService } from './mcp-session.service.js';

/** Sessions and the instance lease. */
export const MCP_SESSION_PROVIDERS: Provider[] = [McpSessionService, McpInstanceLease];
