import { IsString, Length } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

/** Arguments of `get_air_quality`. */
export class GetAirQualityDto {
  @McpProperty({ description: 'City name in English or Chinese, e.g. "Beijing" or "北京"', examples: ['Beijing', '上海'] })
  @IsString()
  @Length(1, 100)
  city: string;
}
