import { Module, type DynamicModule } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import type { GatewayConfig } from './config/gateway-config.from-env.js';
import { HealthModule } from './health/health.module.js';

/** The gateway: one MCP server at `/mcp` whose components are its upstreams', plus `/health` and `/metrics`. */
@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [McpModule.forRoot({ ...config.mcp, isGlobal: true, explorer: config.explorer }), HealthModule],
    };
  }
}
