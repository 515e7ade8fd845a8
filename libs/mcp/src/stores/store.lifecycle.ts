import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { MCP_STORE, type McpKeyValueStore } from './key-value.store.js';
import { MCP_BUS, type McpMessageBus } from '../core/message-bus.interface.js';

/**
 * Closes the store and the bus (their Redis connections, the memory sweeper) when the application shuts down.
 * `onApplicationShutdown` runs after every `beforeApplicationShutdown` and after the HTTP server closed, so job
 * runners and streams that stop earlier can still write their last state.
 */
@Injectable()
export class McpStoreLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_BUS) private readonly bus: McpMessageBus,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // Both, even if one fails: a leftover connection would keep the process alive.
    const results = await Promise.allSettled([this.bus.close?.(), this.store.close?.()]);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
