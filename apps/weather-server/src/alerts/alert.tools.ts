import { Injectable } from '@nestjs/common';
import { McpArgs, McpTenant, McpTool, McpToolError } from '@nest-mcp/core';
import { findCity } from '../weather/city-lookup.js';
import { AlertStore, type WeatherAlert } from './alert.store.js';
import { CreateWeatherAlertDto } from './dto/create-weather-alert.dto.js';

/** Alert tools: writes need `weather:write`, reads `weather:read`; each tenant sees only its own alerts. */
@Injectable()
export class AlertTools {
  constructor(private readonly alerts: AlertStore) {}

  @McpTool({
    description: 'Create a temperature alert for a city. Write operation: pass a fresh idempotency_key for each new alert.',
    title: 'Create weather alert',
    scopes: ['weather:write'],
    idempotencyKey: 'idempotency_key',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  })
  createWeatherAlert(@McpArgs() args: CreateWeatherAlertDto, @McpTenant() tenant: string): WeatherAlert {
    const city = findCity(args.city);
    if (!city) throw new McpToolError('CITY_NOT_FOUND', `Unknown city "${args.city}"`, { retryable: false, fields: ['city'] });
    return this.alerts.create(tenant, { city_id: city.id, city: city.name, threshold_celsius: args.threshold_celsius, priority: args.priority });
  }

  @McpTool({
    description: "List the caller's weather alerts (only those of the caller's tenant).",
    title: 'List weather alerts',
    scopes: ['weather:read'],
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  listWeatherAlerts(@McpTenant() tenant: string): { alerts: WeatherAlert[] } {
    return { alerts: this.alerts.list(tenant) };
  }
}
