import { CITIES } from './cities.data.js';
import { findCity } from './city-lookup.js';

describe('CITIES dataset', () => {
  it('holds at least 45 cities', () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(45);
  });

  it('has 12 finite, plausible monthly values per city', () => {
    for (const city of CITIES) {
      expect(city.monthlyMeanC).toHaveLength(12);
      expect(city.monthlyRainDays).toHaveLength(12);
      for (const mean of city.monthlyMeanC) {
        expect(Number.isFinite(mean)).toBe(true);
        expect(mean).toBeGreaterThanOrEqual(-40);
        expect(mean).toBeLessThanOrEqual(40);
      }
      for (const days of city.monthlyRainDays) {
        expect(Number.isFinite(days)).toBe(true);
        expect(days).toBeGreaterThanOrEqual(0);
        expect(days).toBeLessThanOrEqual(28);
      }
    }
  });

  it('has unique ids, English names and Chinese names', () => {
    const unique = (values: string[]) => new Set(values).size === values.length;
    expect(unique(CITIES.map((c) => c.id))).toBe(true);
    expect(unique(CITIES.map((c) => c.name.toLowerCase()))).toBe(true);
    expect(unique(CITIES.map((c) => c.nameZh))).toBe(true);
  });

  it('uses slug ids, ISO country codes, valid IANA zones and in-range coordinates', () => {
    for (const city of CITIES) {
      expect(city.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(city.country).toMatch(/^[A-Z]{2}$/);
      expect(city.nameZh).toMatch(/^\p{Script=Han}+$/u);
      expect(city.latitude).toBeGreaterThanOrEqual(-90);
      expect(city.latitude).toBeLessThanOrEqual(90);
      expect(city.longitude).toBeGreaterThanOrEqual(-180);
      expect(city.longitude).toBeLessThanOrEqual(180);
      expect(() => new Intl.DateTimeFormat('en', { timeZone: city.timezone })).not.toThrow();
    }
  });

  it('covers both hemispheres with seasons the right way round', () => {
    // Outside the tropics, January is the warm month in the south and the cold one in the north.
    const south = CITIES.filter((c) => c.latitude < -20);
    const north = CITIES.filter((c) => c.latitude > 25);
    expect(south.length).toBeGreaterThanOrEqual(5);
    expect(north.length).toBeGreaterThanOrEqual(5);
    for (const city of south) expect(city.monthlyMeanC[0]).toBeGreaterThan(city.monthlyMeanC[6]);
    for (const city of north) expect(city.monthlyMeanC[0]).toBeLessThan(city.monthlyMeanC[6]);
  });

  it('includes the required cities', () => {
    const required: Array<[string, string]> = [
      ['Beijing', '北京'],
      ['Shanghai', '上海'],
      ['Guangzhou', '广州'],
      ['Shenzhen', '深圳'],
      ['Chengdu', '成都'],
      ['Hangzhou', '杭州'],
      ['Wuhan', '武汉'],
      ["Xi'an", '西安'],
      ['Harbin', '哈尔滨'],
      ['Hong Kong', '香港'],
      ['Taipei', '台北'],
      ['Tokyo', '东京'],
      ['Seoul', '首尔'],
      ['Singapore', '新加坡'],
      ['London', '伦敦'],
      ['Paris', '巴黎'],
      ['New York', '纽约'],
      ['Sydney', '悉尼'],
    ];
    for (const [name, nameZh] of required) {
      expect(CITIES.find((c) => c.name === name)?.nameZh).toBe(nameZh);
    }
  });

  it('is deeply frozen', () => {
    expect(Object.isFrozen(CITIES)).toBe(true);
    for (const city of CITIES) {
      expect(Object.isFrozen(city)).toBe(true);
      expect(Object.isFrozen(city.monthlyMeanC)).toBe(true);
      expect(Object.isFrozen(city.monthlyRainDays)).toBe(true);
    }
  });
});

describe('findCity', () => {
  const beijing = CITIES.find((c) => c.id === 'beijing');

  it.each(['Beijing', 'beijing', 'BEIJING', '  beijing ', '北京', '北京市', ' 北京市 ', 'Peking'])('resolves %j to Beijing', (query) => {
    expect(beijing).toBeDefined();
    expect(findCity(query)).toBe(beijing);
  });

  it('resolves every id, English name, Chinese name (with and without 市) and alias to its own record', () => {
    for (const city of CITIES) {
      for (const query of [city.id, city.name, city.nameZh, `${city.nameZh}市`, ...(city.aliases ?? [])]) {
        expect(findCity(query)?.id).toBe(city.id);
      }
    }
  });

  it('collapses inner whitespace and ignores case', () => {
    expect(findCity('  new    YORK ')?.id).toBe('new-york');
    expect(findCity('new\tyork\ncity')?.id).toBe('new-york');
    expect(findCity('HONG kong')?.id).toBe('hong-kong');
  });

  it('accepts aliases', () => {
    expect(findCity('New York City')?.id).toBe('new-york');
    expect(findCity('nyc')?.id).toBe('new-york');
    expect(findCity('纽约市')?.id).toBe('new-york');
    expect(findCity('臺北')?.id).toBe('taipei');
    expect(findCity('Bombay')?.id).toBe('mumbai');
  });

  it('ignores accents and diacritics in either direction', () => {
    expect(findCity('Sao Paulo')?.id).toBe('sao-paulo');
    expect(findCity('São Paulo')?.id).toBe('sao-paulo');
    expect(findCity('zurich')?.id).toBe('zurich');
    expect(findCity('Reykjavik')?.id).toBe('reykjavik');
    expect(findCity('MONTREAL')?.id).toBe('montreal');
    expect(findCity('Bogota')?.id).toBe('bogota');
    expect(findCity('Ciudad de Mexico')?.id).toBe('mexico-city');
  });

  it("treats apostrophes and hyphens loosely (Xi'an, xian, cape-town)", () => {
    expect(findCity("Xi'an")?.id).toBe('xian');
    expect(findCity('Xi’an')?.id).toBe('xian');
    expect(findCity('xian')?.id).toBe('xian');
    expect(findCity('Cape-Town')?.id).toBe('cape-town');
    expect(findCity('rio de janeiro')?.id).toBe('rio-de-janeiro');
  });

  it('folds full-width Latin letters typed from CJK input methods', () => {
    expect(findCity('Ｂｅｉｊｉｎｇ')?.id).toBe('beijing');
  });

  it.each(['Atlantis', '', '   ', '市', '北', 'beij', 'new', '东京都市'])('returns undefined for %j', (query) => {
    expect(findCity(query)).toBeUndefined();
  });

  it('returns undefined for non-string input instead of throwing', () => {
    expect(findCity(undefined as unknown as string)).toBeUndefined();
    expect(findCity(42 as unknown as string)).toBeUndefined();
  });
});
