import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { McpClient } from './mcp-client.js';
import type { McpClientOptions } from './mcp-client-options.interface.js';
import { MCP_CLIENT_OPTIONS, ConfigurableModuleClass } from './mcp-client.module-definition.js';

/** Closes the module's client when the app shuts down (ends the HTTP session, stops the child). */
@Injectable()
class McpClientLifecycle implements OnApplicationShutdown {
  constructor(@Inject(McpClient) private readonly client: McpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Provides an {@link McpClient} for one remote MCP server: `McpClientModule.register({ url })` (Streamable HTTP,
 * else 2024-11-05 HTTP+SSE) or `register({ command, args })` (a stdio child), or `registerAsync({ useFactory, inject })`.
 * The client connects on its first call, so a server that is down does not fail the boot.
 * @publicApi
 */
@Module({
  providers: [
    { provide: McpClient, useFactory: (options: McpClientOptions) => new McpClient(options), inject: [MCP_CLIENT_OPTIONS] },
    McpClientLifecycle,
  ],
  exports: [McpClient],
})
export class McpClientModule extends ConfigurableModuleClass {}
