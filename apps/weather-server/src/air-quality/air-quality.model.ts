import type { CityRecord } from '../weather/cities.data.js';
import { hashString, mulberry32 } from '../weather/weather.model.js';

/** The US EPA Air Quality Index categories, by their upper bound. */
export const AQI_CATEGORIES = [
  { max: 50, category: 'Good' },
  { max: 100, category: 'Moderate' },
  { max: 150, category: 'Unhealthy for Sensitive Groups' },
  { max: 200, category: 'Unhealthy' },
  { max: 300, category: 'Very Unhealthy' },
  { max: 500, category: 'Hazardous' },
] as const;

export type AqiCategory = (typeof AQI_CATEGORIES)[number]['category'];

/** The EPA category of an AQI value (0..500). */
export function aqiCategory(aqi: number): AqiCategory {
  return (AQI_CATEGORIES.find(({ max }) => aqi <= max) ?? AQI_CATEGORIES[AQI_CATEGORIES.length - 1]).category;
}

/**
 * The day's AQI of a city, deterministic per city and date like the weather model: a per-city baseline (some
 * cities are dirtier than others) plus a daily roll, skewed so Good and Moderate days are the most common and
 * Hazardous ones rare. An integer in 0..500.
 */
export function airQualityFor(city: CityRecord, date: string): { aqi: number; category: AqiCategory } {
  const baseline = 20 + mulberry32(hashString(`aqi:${city.id}`))() * 80;
  const roll = mulberry32(hashString(`aqi:${city.id}:${date}`))();
  const aqi = Math.max(0, Math.min(500, Math.round(baseline * (0.4 + 1.6 * roll) + 400 * roll ** 8)));
  return { aqi, category: aqiCategory(aqi) };
}
