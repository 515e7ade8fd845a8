import { Module } from '@nestjs/common';
import { AlertStore } from './alert.store.js';
import { AlertTools } from './alert.tools.js';
import { MemoryAlertStore } from './memory-alert.store.js';
import { RedisAlertStore } from './redis-alert.store.js';

/**
 * With `REDIS_URL` the alerts live in Redis (every instance sees them), written by atomic scripts on the
 * alert store's own connection; otherwise in this process.
 */
@Module({
  providers: [
    {
      provide: AlertStore,
      useFactory: async (): Promise<AlertStore> =>
        process.env.REDIS_URL ? RedisAlertStore.connect(process.env.REDIS_URL) : new MemoryAlertStore(),
    },
    AlertTools,
  ],
  // The admin server's purge_alerts (AdminModule) works on the same alerts.
  exports: [AlertStore],
})
export class AlertsModule {}
