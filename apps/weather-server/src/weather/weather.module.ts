import { Module } from '@nestjs/common';
import { WeatherTools } from './weather.tools.js';
import { WeatherCardResource } from './ui/weather-card.resource.js';

/** Weather tools and their card app (MCP Apps); McpModule discovers them wherever they are provided. */
@Module({ providers: [WeatherTools, WeatherCardResource] })
export class WeatherModule {}
