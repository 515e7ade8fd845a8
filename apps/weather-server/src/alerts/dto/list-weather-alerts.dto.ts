import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

/** Alerts per page when the caller names no `limit`, and the most it may ask for. */
export const DEFAULT_ALERTS_PER_PAGE = 50;
export const MAX_ALERTS_PER_PAGE = 200;

/** Arguments of `list_weather_alerts`. */
export class ListWeatherAlertsDto {
  @McpProperty({ description: 'nextCursor of the previous page; omit it for the first page' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  cursor?: string;

  @McpProperty({ description: `Most alerts in this page (default ${DEFAULT_ALERTS_PER_PAGE})` })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ALERTS_PER_PAGE)
  limit: number = DEFAULT_ALERTS_PER_PAGE;
}
