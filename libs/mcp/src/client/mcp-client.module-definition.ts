import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpClientOptions } from './mcp-client-options.interface.js';

/** `McpClientModule.register()` / `registerAsync()`: one injectable {@link McpClient} per import. */
export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: MCP_CLIENT_OPTIONS } = new ConfigurableModuleBuilder<McpClientOptions>({
  moduleName: 'McpClient',
})
  .setExtras<{ isGlobal: boolean }>({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();
