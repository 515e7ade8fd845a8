import { CITIES, type CityRecord } from './cities.data.js';

/** Suffix Chinese speakers routinely append to a city name (北京市); the dataset stores names without it. */
const CITY_SUFFIX_ZH = '市';

/**
 * Reduces a name to the form the index is keyed by, so that "  São   PAULO ", "sao paulo" and
 * "Sao-Paulo" collide. NFKD also folds full-width Latin letters typed from CJK input methods.
 * CJK text passes through unchanged apart from the whitespace handling.
 */
function normalizeCityKey(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘`ʼ.]/g, '')
    .replace(/[-_]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every name, alias and id of a city; the id is included so slugs such as `new-york` resolve. */
function keysOf(city: CityRecord): string[] {
  return [city.id, city.name, city.nameZh, ...(city.aliases ?? [])];
}

/**
 * Built once at module load. A duplicate key is a dataset bug that would make lookups ambiguous,
 * so it fails loudly here rather than silently returning whichever city was inserted last.
 */
function buildIndex(cities: readonly CityRecord[]): ReadonlyMap<string, CityRecord> {
  const index = new Map<string, CityRecord>();
  for (const city of cities) {
    for (const key of new Set(keysOf(city).map(normalizeCityKey))) {
      const existing = index.get(key);
      if (existing && existing !== city) {
        throw new Error(`City lookup key "${key}" is shared by "${existing.id}" and "${city.id}"`);
      }
      index.set(key, city);
    }
  }
  // Object.freeze does not stop Map#set; the ReadonlyMap type is what guards the entries.
  return Object.freeze(index);
}

const CITY_INDEX = buildIndex(CITIES);

/**
 * Resolves a user-supplied city name to its record in O(1).
 *
 * Accepts the English name or an alias (case-, accent- and whitespace-insensitive, e.g.
 * `"  new   york city "`, `"Sao Paulo"`), the Chinese name with or without the 市 suffix
 * (`北京`, `北京市`), or the id (`hong-kong`).
 *
 * @returns the matching city, or `undefined` when the query names no known city.
 */
export function findCity(query: string): CityRecord | undefined {
  // Callers pass through raw tool arguments; a non-string must miss rather than throw.
  if (typeof query !== 'string') return undefined;
  const key = normalizeCityKey(query);
  if (key === '') return undefined;
  const direct = CITY_INDEX.get(key);
  if (direct) return direct;
  if (key.length > CITY_SUFFIX_ZH.length && key.endsWith(CITY_SUFFIX_ZH)) {
    return CITY_INDEX.get(key.slice(0, -CITY_SUFFIX_ZH.length).trimEnd());
  }
  return undefined;
}
