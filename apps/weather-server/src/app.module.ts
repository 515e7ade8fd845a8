import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { AlertsModule } from './alerts/alerts.module.js';
import { HealthModule } from './health/health.module.js';
import { explorerFromEnv } from './config/explorer.from-env.js';
import { mcpOptionsFromEnv } from './config/mcp-options.from-env.js';
import { ReportsModule } from './reports/reports.module.js';
import { WeatherModule } from './weather/weather.module.js';

@Module({
  imports: [
    McpModule.forRootAsync({ isGlobal: true, explorer: explorerFromEnv(process.env), useFactory: () => mcpOptionsFromEnv(process.env) }),
    WeatherModule,
    AlertsModule,
    ReportsModule,
    HealthModule,
  ],
})
export class AppModule {}
