import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { AirQualityBetaFilter } from './air-quality/air-quality-beta.filter.js';
import { AirQualityModule } from './air-quality/air-quality.module.js';
import { AlertsModule } from './alerts/alerts.module.js';
import { HealthModule } from './health/health.module.js';
import { explorerFromEnv } from './config/explorer.from-env.js';
import { mcpOptionsFromEnv } from './config/mcp-options.from-env.js';
import { ReportsModule } from './reports/reports.module.js';
import { WeatherModule } from './weather/weather.module.js';

@Module({
  imports: [
    McpModule.forRootAsync({
      isGlobal: true,
      explorer: explorerFromEnv(process.env),
      useFactory: () => ({
        ...mcpOptionsFromEnv(process.env),
        // get_air_quality is a beta: only the tenants in WEATHER_BETA_TENANTS see and call it.
        toolFilters: [AirQualityBetaFilter],
      }),
    }),
    WeatherModule,
    AirQualityModule,
    AlertsModule,
    ReportsModule,
    HealthModule,
  ],
})
export class AppModule {}
