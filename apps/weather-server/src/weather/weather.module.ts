import { Module } from '@nestjs/common';
import { WeatherTools } from './weather.tools.js';

/** Weather tools; McpModule discovers them wherever they are provided. */
@Module({ providers: [WeatherTools] })
export class WeatherModule {}
