import { Injectable } from '@nestjs/common';
import { McpArgs, McpTool, McpToolError } from '@nest-mcp/core';
import { findCity } from './city-lookup.js';
import type { CityRecord } from './cities.data.js';
import { GetForecastDto } from './dto/get-forecast.dto.js';
import { GetWeatherDto } from './dto/get-weather.dto.js';
import type { TemperatureUnit } from './dto/temperature-unit.js';
import { WeatherReportDto } from './dto/weather-report.dto.js';
import { addDays, celsiusToFahrenheit, todayUtc, weatherFor, type DailyWeather } from './weather.model.js';
import { WEATHER_CARD_URI } from './ui/weather-card.resource.js';

/** The weather tools: plain Nest provider methods, exposed to MCP clients by `@McpTool()`. */
@Injectable()
export class WeatherTools {
  @McpTool({
    description: 'Current weather for a city (today, UTC): condition, temperature, humidity, wind and precipitation.',
    title: 'Current weather',
    scopes: ['weather:read'],
    annotations: { readOnlyHint: true, openWorldHint: false },
    output: WeatherReportDto,
    ui: { resourceUri: WEATHER_CARD_URI },
  })
  getWeather(@McpArgs() args: GetWeatherDto): WeatherReportDto {
    const city = this.cityOrFail(args.city);
    return report(city, weatherFor(city, todayUtc()), args.unit);
  }

  @McpTool({
    description: 'Daily forecast for a city, 1 to 14 days starting today (UTC).',
    title: 'Forecast',
    scopes: ['weather:read'],
    annotations: { readOnlyHint: true, openWorldHint: false },
    ui: { resourceUri: WEATHER_CARD_URI },
  })
  getForecast(@McpArgs() args: GetForecastDto) {
    const city = this.cityOrFail(args.city);
    const today = todayUtc();
    const days = Array.from({ length: args.days }, (_, offset) => report(city, weatherFor(city, addDays(today, offset)), args.unit));
    return { city: days[0].city, unit: args.unit, days: days.map(({ city: _city, unit: _unit, ...day }) => day) };
  }

  private cityOrFail(name: string): CityRecord {
    const city = findCity(name);
    if (!city)
      throw new McpToolError('CITY_NOT_FOUND', `Unknown city "${name}". Try an English or Chinese city name such as "Beijing" or "北京".`, {
        retryable: false,
      });
    return city;
  }
}

function report(city: CityRecord, day: DailyWeather, unit: TemperatureUnit): WeatherReportDto {
  const convert = unit === 'fahrenheit' ? celsiusToFahrenheit : (celsius: number) => celsius;
  return {
    city: { id: city.id, name: city.name, nameZh: city.nameZh, country: city.country },
    date: day.date,
    condition: day.condition,
    unit,
    temperature: convert(day.temperatureC),
    high: convert(day.highC),
    low: convert(day.lowC),
    humidityPercent: day.humidityPercent,
    windKph: day.windKph,
    precipitationMm: day.precipitationMm,
  };
}
