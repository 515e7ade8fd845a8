import type { CityRecord } from './cities.data.js';

/**
 * Deterministic synthetic weather: the same city and UTC day always produce the same report, so
 * tool output is reproducible in tests and demos without a network or an API key. Values are
 * drawn around the city's climate normals and are plausible, not forecasts.
 */

/** Every condition the model can report, in a stable order (handy for enums in tool schemas). */
export const WEATHER_CONDITIONS = ['sunny', 'partly_cloudy', 'cloudy', 'rain', 'thunderstorm', 'snow', 'fog', 'windy'] as const;

/** Summary condition of one day. */
export type WeatherCondition = (typeof WEATHER_CONDITIONS)[number];

/** One day of synthetic weather for one city. All temperatures are °C. */
export interface DailyWeather {
  /** The UTC day, `YYYY-MM-DD`. */
  date: string;
  condition: WeatherCondition;
  /** Representative (daily mean) temperature, 0.1 °C precision. */
  temperatureC: number;
  /** Daily maximum, always ≥ `temperatureC`. */
  highC: number;
  /** Daily minimum, always ≤ `temperatureC`. */
  lowC: number;
  /** Relative humidity, integer 0–100. */
  humidityPercent: number;
  /** Mean wind speed, integer km/h. */
  windKph: number;
  /** Precipitation total (water equivalent for snow), 0.1 mm precision; 0 on dry days. */
  precipitationMm: number;
}

/** Largest deviation of a day's temperature from the seasonal mean. */
const MAX_TEMPERATURE_NOISE_C = 4;
/** Snow is only reported at or below this temperature. */
const SNOW_MAX_C = 1;
/** Thunderstorms need warmth; below this a wet day is plain rain. */
const THUNDER_MIN_C = 18;
/** Keeps even the wettest month from raining every single day. */
const MAX_PRECIPITATION_PROBABILITY = 0.95;
/** Smallest amount worth reporting on a wet day, so "rain" never comes with 0 mm. */
const MIN_PRECIPITATION_MM = 0.2;
/** Caps the exponential tail at a record-breaking but still believable daily total. */
const MAX_PRECIPITATION_MM = 150;
const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Rounds to one decimal, mapping -0 to 0 so JSON and equality checks stay clean. */
function round1(value: number): number {
  return Math.round(value * 10) / 10 || 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Parses a strict `YYYY-MM-DD` calendar date as a UTC timestamp, or returns undefined. */
function parseIsoDateUtc(date: string): number | undefined {
  if (typeof date !== 'string') return undefined;
  const match = ISO_DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const parsed = new Date(time);
  // Date.UTC silently rolls 2023-02-30 over to March; a round-trip rejects such dates.
  // It also maps years 0–99 to 1900–1999, which the year check catches too.
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) {
    return undefined;
  }
  return time;
}

function requireIsoDateUtc(date: string): number {
  const time = parseIsoDateUtc(date);
  if (time === undefined) throw new RangeError(`Expected a calendar date as YYYY-MM-DD, got "${String(date)}"`);
  return time;
}

function formatIsoDateUtc(time: number): string {
  const d = new Date(time);
  const year = String(d.getUTCFullYear()).padStart(4, '0');
  const month = String(d.getUTCMonth() + 1).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

function daysInMonthUtc(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * True when `date` is a real calendar date written exactly as `YYYY-MM-DD`
 * (so `2024-02-29` passes and `2023-02-29` or `2024-2-9` do not).
 */
export function isIsoDate(date: string): boolean {
  return parseIsoDateUtc(date) !== undefined;
}

/**
 * The UTC calendar day of `now` as `YYYY-MM-DD`.
 *
 * @param now defaults to the current time; pass one for reproducible results.
 */
export function todayUtc(now: Date = new Date()): string {
  return formatIsoDateUtc(now.getTime());
}

/**
 * Shifts a `YYYY-MM-DD` date by a whole number of days (negative goes back), across month,
 * year and leap-day boundaries.
 *
 * @throws RangeError when `date` is not a valid calendar date or `days` is not an integer.
 */
export function addDays(date: string, days: number): string {
  const time = requireIsoDateUtc(date);
  if (!Number.isInteger(days)) throw new RangeError(`Expected an integer number of days, got ${days}`);
  // Pure millisecond arithmetic is exact here: UTC has no DST, and Date ignores leap seconds.
  return formatIsoDateUtc(time + days * MS_PER_DAY);
}

/** Converts °C to °F, rounded to 0.1. */
export function celsiusToFahrenheit(c: number): number {
  return round1((c * 9) / 5 + 32);
}

/**
 * Where `time` falls on the monthly-normals curve: each month's normal is pinned to its
 * mid-point, and a day blends the two nearest months linearly, wrapping December → January.
 */
function seasonalPosition(time: number): { before: number; after: number; weight: number } {
  const d = new Date(time);
  const month = d.getUTCMonth();
  const monthLength = daysInMonthUtc(d.getUTCFullYear(), month);
  // Fractional month offset from the mid-point of the current month, in (-0.5, 0.5).
  const offset = (d.getUTCDate() - 0.5) / monthLength - 0.5;
  const before = offset < 0 ? (month + 11) % 12 : month;
  const after = (before + 1) % 12;
  const weight = offset < 0 ? 1 + offset : offset;
  return { before, after, weight };
}

function interpolate(values: readonly number[], time: number): number {
  const { before, after, weight } = seasonalPosition(time);
  return values[before] * (1 - weight) + values[after] * weight;
}

/**
 * The city's climatological mean temperature for `date`, interpolated between monthly normals.
 * `weatherFor` never strays more than 4 °C from this value.
 *
 * @throws RangeError when `date` is not a valid `YYYY-MM-DD` date.
 */
export function seasonalMeanC(city: CityRecord, date: string): number {
  return interpolate(city.monthlyMeanC, requireIsoDateUtc(date));
}

/** Probability of a wet day, from rain days per month normalised by that month's length. */
function precipitationProbability(city: CityRecord, time: number): number {
  const year = new Date(time).getUTCFullYear();
  const fractions = city.monthlyRainDays.map((days, month) => days / daysInMonthUtc(year, month));
  return clamp(interpolate(fractions, time), 0, MAX_PRECIPITATION_PROBABILITY);
}

/** 32-bit FNV-1a: tiny, dependency-free and stable across platforms, which is all a seed needs. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a well-mixed 32-bit PRNG, so neighbouring seeds (consecutive days) diverge at once. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Maps a uniform roll in [0, 1) onto [min, max). */
function scale(roll: number, [min, max]: readonly [number, number]): number {
  return min + (max - min) * roll;
}

/** The uniform rolls one day consumes, each in [0, 1). */
interface DayRolls {
  noiseA: number;
  noiseB: number;
  wet: number;
  thunder: number;
  sky: number;
  diurnalRange: number;
  diurnalSplit: number;
  humidity: number;
  wind: number;
  precipitation: number;
}

/**
 * Draws every roll up front in a fixed order, so adding a branch to the model can never shift
 * which random number a later quantity receives.
 */
function rollDay(seedText: string): DayRolls {
  const random = mulberry32(hashString(seedText));
  return {
    noiseA: random(),
    noiseB: random(),
    wet: random(),
    thunder: random(),
    sky: random(),
    diurnalRange: random(),
    diurnalSplit: random(),
    humidity: random(),
    wind: random(),
    precipitation: random(),
  };
}

function pickCondition(rolls: DayRolls, temperatureC: number, wetProbability: number): WeatherCondition {
  if (rolls.wet < wetProbability) {
    if (temperatureC <= SNOW_MAX_C) return 'snow';
    const thunderChance = temperatureC >= THUNDER_MIN_C ? Math.min(0.5, 0.15 + 0.02 * (temperatureC - THUNDER_MIN_C)) : 0;
    return rolls.thunder < thunderChance ? 'thunderstorm' : 'rain';
  }
  if (rolls.sky < 0.05) return 'fog';
  if (rolls.sky < 0.11) return 'windy';
  // Wetter seasons are cloudier even on dry days, so the cloudy share grows with the wet-day probability.
  const cloudy = 0.15 + 0.5 * wetProbability;
  const partlyCloudy = 0.35;
  const rest = (rolls.sky - 0.11) / 0.89;
  if (rest < cloudy) return 'cloudy';
  if (rest < cloudy + partlyCloudy) return 'partly_cloudy';
  return 'sunny';
}

/** Typical day-to-night temperature range per condition: clear skies swing most. */
const DIURNAL_RANGE_C: Record<WeatherCondition, readonly [number, number]> = {
  sunny: [8, 13],
  partly_cloudy: [6, 10],
  cloudy: [3, 6],
  rain: [2, 5],
  thunderstorm: [4, 8],
  snow: [2, 5],
  fog: [3, 6],
  windy: [5, 9],
};

const HUMIDITY_PERCENT: Record<WeatherCondition, readonly [number, number]> = {
  sunny: [30, 60],
  partly_cloudy: [45, 75],
  cloudy: [60, 85],
  rain: [80, 97],
  thunderstorm: [75, 95],
  snow: [75, 95],
  fog: [92, 100],
  windy: [35, 65],
};

const WIND_KPH: Record<WeatherCondition, readonly [number, number]> = {
  sunny: [3, 18],
  partly_cloudy: [5, 20],
  cloudy: [5, 22],
  rain: [8, 28],
  thunderstorm: [15, 45],
  snow: [5, 30],
  fog: [0, 8],
  windy: [35, 65],
};

/** Mean precipitation per wet day (mm) on top of `MIN_PRECIPITATION_MM`. */
const PRECIPITATION_MEAN_MM: Partial<Record<WeatherCondition, number>> = {
  rain: 6,
  thunderstorm: 15,
  snow: 3,
};

/**
 * Deterministic synthetic weather for one city on one UTC day.
 *
 * The temperature follows the city's seasonal mean (see `seasonalMeanC`) within ±4 °C; the chance
 * of precipitation follows its monthly rain days; snow only at or below 1 °C. Identical inputs
 * always yield an identical result.
 *
 * @param date the UTC day, `YYYY-MM-DD`.
 * @throws RangeError when `date` is not a valid calendar date.
 */
export function weatherFor(city: CityRecord, date: string): DailyWeather {
  const time = requireIsoDateUtc(date);
  const rolls = rollDay(`${city.id}:${date}`);

  // Sum of two uniforms: triangular noise, so days near the normal are most common and the
  // ±4 °C bound is hard rather than statistical.
  const noise = (rolls.noiseA + rolls.noiseB - 1) * MAX_TEMPERATURE_NOISE_C;
  const temperatureC = round1(interpolate(city.monthlyMeanC, time) + noise);

  const wetProbability = precipitationProbability(city, time);
  const condition = pickCondition(rolls, temperatureC, wetProbability);

  // Humid climates have smaller day/night swings.
  const range = scale(rolls.diurnalRange, DIURNAL_RANGE_C[condition]) * (1 - 0.3 * wetProbability);
  const highShare = 0.4 + 0.2 * rolls.diurnalSplit;
  // round1 is monotonic and temperatureC is already rounded, so high ≥ temperature ≥ low survives rounding.
  const highC = round1(temperatureC + range * highShare);
  const lowC = round1(temperatureC - range * (1 - highShare));

  const humidityPercent = Math.round(clamp(scale(rolls.humidity, HUMIDITY_PERCENT[condition]) + (wetProbability - 0.3) * 15, 5, 100));
  const windKph = Math.round(scale(rolls.wind, WIND_KPH[condition]));

  // Exponential amounts: many light days and a few heavy ones, like real daily totals.
  const precipitationMean = PRECIPITATION_MEAN_MM[condition];
  const precipitationMm =
    precipitationMean === undefined
      ? 0
      : round1(MIN_PRECIPITATION_MM + Math.min(-Math.log(1 - rolls.precipitation) * precipitationMean, MAX_PRECIPITATION_MM));

  return { date, condition, temperatureC, highC, lowC, humidityPercent, windKph, precipitationMm };
}
