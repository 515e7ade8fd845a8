import { CITIES, type CityRecord } from './cities.data.js';
import {
  WEATHER_CONDITIONS,
  addDays,
  celsiusToFahrenheit,
  isIsoDate,
  seasonalMeanC,
  todayUtc,
  weatherFor,
  type DailyWeather,
} from './weather.model.js';

function city(id: string): CityRecord {
  const found = CITIES.find((c) => c.id === id);
  if (!found) throw new Error(`test fixture city ${id} missing`);
  return found;
}

/** Every day from `start` for `count` days. */
function days(start: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(start, i));
}

function month(cityId: string, start: string, count: number): DailyWeather[] {
  return days(start, count).map((date) => weatherFor(city(cityId), date));
}

const isRounded1 = (value: number) => Math.round(value * 10) / 10 === value;
const WET = new Set(['rain', 'thunderstorm', 'snow']);

// Every city over a full (leap) year: large enough to exercise all branches, still fast.
const YEAR = days('2024-01-01', 366);
const ALL: Array<{ city: CityRecord; weather: DailyWeather }> = CITIES.flatMap((c) =>
  YEAR.map((date) => ({ city: c, weather: weatherFor(c, date) })),
);

/**
 * Checks an invariant over all generated days with a single assertion: calling `expect` per day
 * would cost seconds, and the failing days are listed in full when it breaks.
 */
function expectEveryDay(invariant: (weather: DailyWeather, city: CityRecord) => boolean): void {
  const violations = ALL.filter(({ city: c, weather }) => !invariant(weather, c)).map(({ city: c, weather }) => ({
    city: c.id,
    ...weather,
  }));
  expect(violations).toEqual([]);
}

describe('weatherFor', () => {
  it('is deterministic for the same city and date', () => {
    const beijing = city('beijing');
    const first = weatherFor(beijing, '2025-03-14');
    expect(weatherFor(beijing, '2025-03-14')).toEqual(first);
    // A structurally equal record (e.g. re-created elsewhere) must give the same answer too.
    expect(weatherFor({ ...beijing }, '2025-03-14')).toEqual(first);
  });

  it('pins known outputs so an accidental model change is noticed', () => {
    // If you change the model on purpose, update these snapshots.
    expect(weatherFor(city('beijing'), '2025-01-15')).toEqual({
      date: '2025-01-15',
      condition: 'sunny',
      temperatureC: -1,
      highC: 3.1,
      lowC: -5.9,
      humidityPercent: 46,
      windKph: 10,
      precipitationMm: 0,
    });
    expect(weatherFor(city('sydney'), '2025-07-01')).toEqual({
      date: '2025-07-01',
      condition: 'partly_cloudy',
      temperatureC: 13.2,
      highC: 15.7,
      lowC: 9.7,
      humidityPercent: 63,
      windKph: 16,
      precipitationMm: 0,
    });
  });

  it('varies between dates and between cities', () => {
    const temps = new Set(month('london', '2025-04-01', 30).map((w) => w.temperatureC));
    expect(temps.size).toBeGreaterThan(10);
    expect(weatherFor(city('london'), '2025-04-01')).not.toEqual(weatherFor(city('paris'), '2025-04-01'));
  });

  it('echoes the date and only reports known conditions', () => {
    expectEveryDay((w) => (WEATHER_CONDITIONS as readonly string[]).includes(w.condition));
    expect(weatherFor(city('tokyo'), '2024-02-29').date).toBe('2024-02-29');
  });

  it('keeps temperature within ±4 °C of the seasonal mean, with high ≥ temperature ≥ low', () => {
    // 0.05 allows for rounding the temperature to 0.1.
    expectEveryDay((w, c) => Math.abs(w.temperatureC - seasonalMeanC(c, w.date)) <= 4.05);
    expectEveryDay((w) => w.highC >= w.temperatureC && w.temperatureC >= w.lowC);
    expectEveryDay((w) => w.highC - w.lowC <= 13.1);
  });

  it('rounds as documented and keeps every value in a plausible range', () => {
    expectEveryDay((w) => [w.temperatureC, w.highC, w.lowC, w.precipitationMm].every(isRounded1));
    expectEveryDay((w) => Number.isInteger(w.humidityPercent) && w.humidityPercent >= 0 && w.humidityPercent <= 100);
    expectEveryDay((w) => Number.isInteger(w.windKph) && w.windKph >= 0 && w.windKph <= 120);
    expectEveryDay((w) => w.precipitationMm >= 0 && w.precipitationMm <= 200);
    expectEveryDay((w) => !Object.is(w.temperatureC, -0) && !Object.is(w.highC, -0) && !Object.is(w.lowC, -0));
  });

  it('reports precipitation exactly on rain, thunderstorm and snow days', () => {
    expectEveryDay((w) => w.precipitationMm > 0 === WET.has(w.condition));
  });

  it('only snows at or below 1 °C', () => {
    expect(ALL.some(({ weather }) => weather.condition === 'snow')).toBe(true);
    expectEveryDay((w) => w.condition !== 'snow' || w.temperatureC <= 1);
  });

  it('produces every condition somewhere in the dataset', () => {
    const seen = new Set(ALL.map(({ weather }) => weather.condition));
    expect([...seen].sort()).toEqual([...WEATHER_CONDITIONS].sort());
  });

  it('never snows where the climate never gets near freezing', () => {
    for (const id of ['singapore', 'hong-kong', 'sydney', 'dubai']) {
      expect(ALL.some(({ city: c, weather }) => c.id === id && weather.condition === 'snow')).toBe(false);
    }
  });

  it('turns every wet day into snow in a deep-frozen climate', () => {
    const winter = month('harbin', '2025-01-01', 31);
    expect(winter.some((w) => w.condition === 'snow')).toBe(true);
    expect(winter.some((w) => w.condition === 'rain' || w.condition === 'thunderstorm')).toBe(false);
  });

  it('follows the monthly rain days: dry places stay dry, wet seasons are wet', () => {
    const wetDays = (cityId: string, start: string, count: number) =>
      month(cityId, start, count).filter((w) => WET.has(w.condition)).length;
    expect(wetDays('lima', '2025-01-01', 31)).toBe(0);
    expect(wetDays('cairo', '2025-07-01', 31)).toBe(0);
    // Mumbai: 0 rain days in February, 22 in July.
    expect(wetDays('mumbai', '2025-02-01', 28)).toBeLessThanOrEqual(1);
    expect(wetDays('mumbai', '2025-07-01', 31)).toBeGreaterThanOrEqual(15);
  });

  it('tracks the seasonal mean on average, in both hemispheres', () => {
    const average = (list: DailyWeather[]) => list.reduce((sum, w) => sum + w.temperatureC, 0) / list.length;
    expect(Math.abs(average(month('harbin', '2025-01-01', 31)) - -17.6)).toBeLessThan(1.5);
    expect(Math.abs(average(month('singapore', '2025-06-01', 30)) - 28.3)).toBeLessThan(1.5);
    expect(average(month('sydney', '2025-01-01', 31))).toBeGreaterThan(average(month('sydney', '2025-07-01', 31)));
    expect(average(month('beijing', '2025-01-01', 31))).toBeLessThan(average(month('beijing', '2025-07-01', 31)));
  });

  it.each(['2025-02-30', '2025-13-01', '2025-1-05', '20250105', 'tomorrow', ''])('rejects invalid date %j', (date) => {
    expect(() => weatherFor(city('paris'), date)).toThrow(RangeError);
  });
});

describe('seasonalMeanC', () => {
  it('equals the monthly normal in the middle of the month', () => {
    const beijing = city('beijing');
    // Mid-January in a 31-day month: day 16 sits on the mid-point exactly.
    expect(seasonalMeanC(beijing, '2025-01-16')).toBeCloseTo(beijing.monthlyMeanC[0], 5);
    expect(seasonalMeanC(beijing, '2025-07-16')).toBeCloseTo(beijing.monthlyMeanC[6], 5);
  });

  it('moves smoothly across month and year boundaries', () => {
    const jumps = CITIES.flatMap((c) =>
      days('2024-12-20', 24)
        .map((date) => ({ city: c.id, date, step: Math.abs(seasonalMeanC(c, addDays(date, 1)) - seasonalMeanC(c, date)) }))
        .filter(({ step }) => step >= 0.6),
    );
    expect(jumps).toEqual([]);
  });

  it('stays within the range of the monthly normals', () => {
    const outside = CITIES.flatMap((c) => {
      const min = Math.min(...c.monthlyMeanC) - 1e-9;
      const max = Math.max(...c.monthlyMeanC) + 1e-9;
      return YEAR.filter((date) => {
        const mean = seasonalMeanC(c, date);
        return mean < min || mean > max;
      }).map((date) => `${c.id} ${date}`);
    });
    expect(outside).toEqual([]);
  });
});

describe('celsiusToFahrenheit', () => {
  it.each([
    [0, 32],
    [100, 212],
    [-40, -40],
    [37, 98.6],
    [21.3, 70.3],
    [-17.8, 0],
  ])('%p °C → %p °F', (c, f) => {
    expect(celsiusToFahrenheit(c)).toBe(f);
  });
});

describe('addDays', () => {
  it('crosses month, year and leap-day boundaries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2025-03-10', 0)).toBe('2025-03-10');
    expect(addDays('2024-01-01', 366)).toBe('2025-01-01');
  });

  it('rejects invalid input', () => {
    expect(() => addDays('2025-02-29', 1)).toThrow(RangeError);
    expect(() => addDays('2025-01-01', 1.5)).toThrow(RangeError);
    expect(() => addDays('2025-01-01', Number.NaN)).toThrow(RangeError);
  });
});

describe('todayUtc', () => {
  it('formats the UTC day, not the local one', () => {
    expect(todayUtc(new Date('2024-03-05T23:30:00-05:00'))).toBe('2024-03-06');
    expect(todayUtc(new Date('2024-03-06T00:30:00+08:00'))).toBe('2024-03-05');
  });

  it('defaults to now', () => {
    expect(isIsoDate(todayUtc())).toBe(true);
  });
});

describe('isIsoDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-2-9', false],
    ['2024-02-09T00:00:00Z', false],
    ['', false],
  ])('%j → %p', (date, expected) => {
    expect(isIsoDate(date)).toBe(expected);
  });
});
