import { Module } from '@nestjs/common';
import { MCP_STORE, type McpKeyValueStore } from '@nest-mcp/core';
import { AlertStore } from './alert.store.js';
import { AlertTools } from './alert.tools.js';
import { MemoryAlertStore } from './memory-alert.store.js';
import { RedisAlertStore } from './redis-alert.store.js';

/**
 * With `REDIS_URL` the alerts live in the MCP module's shared store (Redis: every instance sees them);
 * otherwise in this process. `MCP_STORE` comes from the global `McpModule`, so no second connection is opened.
 */
@Module({
  providers: [
    {
      provide: AlertStore,
      useFactory: (store: McpKeyValueStore): AlertStore => (process.env.REDIS_URL ? new RedisAlertStore(store) : new MemoryAlertStore()),
      inject: [MCP_STORE],
    },
    AlertTools,
  ],
})
export class AlertsModule {}
