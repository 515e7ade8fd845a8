import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleExtras, McpModuleOptions } from './options/mcp-module-options.interface.js';

/** Options as the user gave them, before defaults. */
export const {
  ConfigurableModuleClass,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setExtras<McpModuleExtras>({ path: '/mcp', isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();
