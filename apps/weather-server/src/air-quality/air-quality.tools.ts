import { Injectable } from '@nestjs/common';
import { McpArgs, McpTool, McpToolError } from '@nest-mcp/core';
import { findCity } from '../weather/city-lookup.js';
import { todayUtc } from '../weather/weather.model.js';
import { airQualityFor } from './air-quality.model.js';
import { GetAirQualityDto } from './dto/get-air-quality.dto.js';

/** The beta air-quality tool: only the tenants in `WEATHER_BETA_TENANTS` see it (`AirQualityBetaFilter`). */
@Injectable()
export class AirQualityTools {
  @McpTool({
    description: "Today's (UTC) US EPA Air Quality Index of a city (0..500) and its category, e.g. Good or Moderate. Beta.",
    title: 'Air quality',
    scopes: ['weather:read'],
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  getAirQuality(@McpArgs() args: GetAirQualityDto) {
    const city = findCity(args.city);
    if (!city)
      throw new McpToolError(
        'CITY_NOT_FOUND',
        `Unknown city "${args.city}". Try an English or Chinese city name such as "Beijing" or "北京".`,
        {
          retryable: false,
        },
      );
    const date = todayUtc();
    return { city: { id: city.id, name: city.name, nameZh: city.nameZh, country: city.country }, date, ...airQualityFor(city, date) };
  }
}
