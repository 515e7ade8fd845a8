import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';
import { TEMPERATURE_UNITS, type TemperatureUnit } from './temperature-unit.js';

/** Arguments of `get_weather`: its inputSchema is generated from these decorators. */
export class GetWeatherDto {
  @McpProperty({ description: 'City name in English or Chinese, e.g. "Beijing" or "北京"', examples: ['Beijing', '上海'] })
  @IsString()
  @Length(1, 100)
  city: string;

  @McpProperty({ description: 'Temperature unit of the answer' })
  @IsOptional()
  @IsIn(TEMPERATURE_UNITS)
  unit: TemperatureUnit = 'celsius';
}
