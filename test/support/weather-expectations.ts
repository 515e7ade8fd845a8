import { mcpOptionsFromEnv } from '../../apps/weather-server/src/config/mcp-options.from-env.js';
import { findCity } from '../../apps/weather-server/src/weather/city-lookup.js';
import type { CityRecord } from '../../apps/weather-server/src/weather/cities.data.js';
import { addDays, celsiusToFahrenheit, weatherFor } from '../../apps/weather-server/src/weather/weather.model.js';

/** `serverInfo` of the weather-server's initialize result. */
export const SERVER_INFO = { name: 'weather-server', version: '1.0.0', title: 'Weather' } as const;

/** The instructions the sample configures (read from its config, so rewording the sample does not break tests). */
export const INSTRUCTIONS: string = mcpOptionsFromEnv({}).instructions!;

/** The tools this suite is about; the sample may offer more. */
export const WEATHER_TOOL_NAMES = ['get_forecast', 'get_weather'];

export type Unit = 'celsius' | 'fahrenheit';

/** The city record a name resolves to; fails loudly when the fixture name is wrong. */
export function cityNamed(name: string): CityRecord {
  const city = findCity(name);
  if (!city) throw new Error(`test fixture: unknown city ${name}`);
  return city;
}

/** The `data` get_weather must return for a city and UTC date, computed from the deterministic model. */
export function expectedReport(cityName: string, date: string, unit: Unit = 'celsius'): Record<string, unknown> {
  const city = cityNamed(cityName);
  const day = weatherFor(city, date);
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

/** The `data` get_forecast must return: the city and unit once, then one report (without city/unit) per day. */
export function expectedForecast(cityName: string, firstDate: string, days: number, unit: Unit = 'celsius'): Record<string, unknown> {
  const reports = Array.from({ length: days }, (_, offset) => expectedReport(cityName, addDays(firstDate, offset), unit));
  return {
    city: reports[0].city,
    unit,
    days: reports.map(({ city: _city, unit: _unit, ...day }) => day),
  };
}

/** Matches an error envelope; `fields` is compared exactly when given, and must be absent otherwise. */
export function errorEnvelope(code: string, fields?: string[]): Record<string, unknown> {
  const error: Record<string, unknown> = { code, message: expectOfString(), retryable: false };
  if (fields) error.fields = fields;
  return { status: 'error', error };
}

function expectOfString(): unknown {
  return expect.stringMatching(/\S/);
}
