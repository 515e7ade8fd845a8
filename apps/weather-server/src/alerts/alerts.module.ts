import { Module } from '@nestjs/common';
import { redisFromEnv } from '../config/mcp-options.from-env.js';
import { AlertStore } from './alert.store.js';
import { AlertTools } from './alert.tools.js';
import { MemoryAlertStore } from './memory-alert.store.js';
import { RedisAlertStore } from './redis-alert.store.js';

/**
 * With `REDIS_URL` or `REDIS_CLUSTER_NODES` the alerts live in Redis (every instance sees them), on the Redis the MCP
 * module uses, written by atomic scripts on the alert store's own connection; otherwise in this process.
 */
@Module({
  providers: [
    {
      provide: AlertStore,
      useFactory: async (): Promise<AlertStore> => {
        const { redis } = redisFromEnv(process.env);
        return redis ? RedisAlertStore.connect(redis) : new MemoryAlertStore();
      },
    },
    AlertTools,
  ],
  // The admin server's purge_alerts (AdminModule) works on the same alerts.
  exports: [AlertStore],
})
export class AlertsModule {}
