import type { CityRecord } from '../weather/cities.data.js';
import { addDays, weatherFor } from '../weather/weather.model.js';

/** One year of the report. */
export interface ClimateYear {
  year: number;
  meanC: number;
  hottestC: number;
  coldestC: number;
  precipitationMm: number;
  rainyDays: number;
  snowDays: number;
}

/** Statistics of a city's simulated daily weather, year by year (deterministic: same input, same report). */
export function buildClimateYear(city: CityRecord, year: number): ClimateYear {
  let day = `${year}-01-01`;
  let sum = 0;
  let count = 0;
  let hottest = Number.NEGATIVE_INFINITY;
  let coldest = Number.POSITIVE_INFINITY;
  let precipitation = 0;
  let rainyDays = 0;
  let snowDays = 0;
  while (day.startsWith(String(year))) {
    const weather = weatherFor(city, day);
    sum += weather.temperatureC;
    count += 1;
    hottest = Math.max(hottest, weather.highC);
    coldest = Math.min(coldest, weather.lowC);
    precipitation += weather.precipitationMm;
    if (weather.condition === 'rain' || weather.condition === 'thunderstorm') rainyDays += 1;
    if (weather.condition === 'snow') snowDays += 1;
    day = addDays(day, 1);
  }
  return {
    year,
    meanC: Math.round((sum / count) * 10) / 10,
    hottestC: hottest,
    coldestC: coldest,
    precipitationMm: Math.round(precipitation * 10) / 10,
    rainyDays,
    snowDays,
  };
}
