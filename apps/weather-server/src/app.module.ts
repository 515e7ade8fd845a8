import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { WeatherModule } from './weather/weather.module.js';

@Module({
  imports: [
    McpModule.forRoot({
      name: 'weather-server',
      version: '1.0.0',
      title: 'Weather',
      instructions: 'Weather for about fifty cities worldwide. City names may be English or Chinese.',
    }),
    WeatherModule,
  ],
})
export class AppModule {}
