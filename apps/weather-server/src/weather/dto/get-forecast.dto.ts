import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';
import { TEMPERATURE_UNITS, type TemperatureUnit } from './temperature-unit.js';

/** Arguments of `get_forecast`. */
export class GetForecastDto {
  @McpProperty({ description: 'City name in English or Chinese' })
  @IsString()
  @Length(1, 100)
  city: string;

  @McpProperty({ description: 'Number of days, starting today (UTC)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(14)
  days: number = 3;

  @McpProperty({ description: 'Temperature unit of the answer' })
  @IsOptional()
  @IsIn(TEMPERATURE_UNITS)
  unit: TemperatureUnit = 'celsius';
}
