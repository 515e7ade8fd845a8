import { IsString, Length } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

/** Arguments of `delete_weather_alert`. */
export class DeleteWeatherAlertDto {
  @McpProperty({ description: 'Id of the alert to delete (alert_id from create_weather_alert or list_weather_alerts)' })
  @IsString()
  @Length(1, 100)
  alert_id: string;
}
