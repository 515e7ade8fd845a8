import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { AirQualityBetaFilter } from './air-quality/air-quality-beta.filter.js';
import { AirQualityModule } from './air-quality/air-quality.module.js';
import { AdminModule } from './admin/admin.module.js';
import { adminMcpOptionsFromEnv } from './config/admin-mcp-options.from-env.js';
import { AlertsModule } from './alerts/alerts.module.js';
import { HealthModule } from './health/health.module.js';
import { explorerFromEnv } from './config/explorer.from-env.js';
import { mcpOptionsFromEnv } from './config/mcp-options.from-env.js';
import { ReportsModule } from './reports/reports.module.js';
import { WeatherModule } from './weather/weather.module.js';

/** The modules whose tools, resources and prompts the main server at `/mcp` serves. */
const WEATHER_MODULES = [WeatherModule, AirQualityModule, AlertsModule, ReportsModule];

/**
 * Two MCP servers in one app: the weather tools at `/mcp`, the admin tools at `/admin/mcp`. Each serves only the
 * modules it includes, with the same credentials; the admin server leaves `/sse` and the host-level `/.well-known/`
 * documents to the main one.
 */
@Module({
  imports: [
    // Imported before the main server: a lookup without a module (app.get(McpToolRegistry), Nest's non-strict get)
    // finds the server imported last, which should be the weather one.
    McpModule.forRootAsync({
      path: '/admin/mcp',
      ssePath: false,
      wellKnownRoot: false,
      include: [AdminModule],
      useFactory: () => adminMcpOptionsFromEnv(process.env),
    }),
    McpModule.forRootAsync({
      isGlobal: true,
      explorer: explorerFromEnv(process.env),
      include: WEATHER_MODULES,
      useFactory: () => ({
        ...mcpOptionsFromEnv(process.env),
        // get_air_quality is a beta: only the tenants in WEATHER_BETA_TENANTS see and call it.
        tools: { filters: [AirQualityBetaFilter] },
      }),
    }),
    ...WEATHER_MODULES,
    AdminModule,
    HealthModule,
  ],
})
export class AppModule {}
