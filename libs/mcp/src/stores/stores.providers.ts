import type { Provider } from '@nestjs/common';
import { MCP_BUS } from '../core/message-bus.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import { afterServerChecks, McpServerDirectory } from '../options/mcp-server.directory.js';
import { MCP_STORE } from './key-value.store.js';
import { createMcpBus, createMcpStore } from './store.factory.js';
import { McpStoreLifecycle } from './store.lifecycle.js';
import { McpTenantQuotas } from './tenant-quotas.js';

/** The store and the bus (connected once every server of the app is known not to clash with this one), their closing, the tenants' quotas. */
export const MCP_STORE_PROVIDERS: Provider[] = [
  { provide: MCP_STORE, useFactory: afterServerChecks(createMcpStore), inject: [McpServerDirectory, MCP_RESOLVED_OPTIONS] },
  { provide: MCP_BUS, useFactory: afterServerChecks(createMcpBus), inject: [McpServerDirectory, MCP_RESOLVED_OPTIONS] },
  McpStoreLifecycle,
  McpTenantQuotas,
];
