import { IsIn, IsNumber, IsString, Length, Max, Min } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

export const ALERT_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type AlertPriority = (typeof ALERT_PRIORITIES)[number];

/** Arguments of `create_weather_alert`. */
export class CreateWeatherAlertDto {
  @McpProperty({ description: 'City to watch, in English or Chinese' })
  @IsString()
  @Length(1, 100)
  city: string;

  @McpProperty({ description: 'Alert when the temperature reaches this value (°C)' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(60)
  threshold_celsius: number;

  @McpProperty({ description: 'How urgent the alert is; critical pages someone' })
  @IsIn(ALERT_PRIORITIES)
  priority: AlertPriority;

  @McpProperty({ description: 'Client-generated key: the same key never creates two alerts' })
  @IsString()
  @Length(16, 64)
  idempotency_key: string;
}
