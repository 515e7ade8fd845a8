import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';
import { IsKnownCity } from '../../weather/dto/is-known-city.validator.js';

/** Arguments of `generate_climate_report`. */
export class ClimateReportDto {
  @McpProperty({ description: 'City name in English or Chinese' })
  @IsString()
  @Length(1, 100)
  @IsKnownCity()
  city: string;

  @McpProperty({ description: 'How many past years (UTC calendar years before this one) the report covers' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(30)
  years: number = 5;
}
