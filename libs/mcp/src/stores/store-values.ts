/** Every store and bus holds JSON text, memory ones too, so a value that changes shape in Redis changes in tests alike. */
export function encodeValue(value: unknown, what = 'value'): string {
  const encoded = JSON.stringify(value);
  // JSON.stringify returns undefined for undefined, functions and symbols: nothing Redis could hold.
  if (encoded === undefined) throw new TypeError(`The ${what} must be JSON-serialisable, got ${typeof value}.`);
  return encoded;
}

/** The value back from its JSON text; a fresh copy every time. */
export function decodeValue<T>(encoded: string): T {
  return JSON.parse(encoded) as T;
}

const positiveInteger =
  (name: string) =>
  (value: number): void => {
    if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${String(value)}.`);
  };

/** Redis `PX` takes a positive whole number of milliseconds; the memory store enforces the same. */
export const assertTtl = positiveInteger('ttlMs');
/** `LTRIM key -0 -1` would keep the whole list, so a bound below 1 is refused rather than ignored. */
export const assertMaxLength = positiveInteger('maxLength');
/** A byte bound of a list (`append`'s `maxBytes`): a positive whole number of bytes of JSON text. */
const assertMaxBytes = positiveInteger('maxBytes');

/** Options of `append`: the byte bound, and what to keep in place of a value over it on its own. */
export interface AppendOptions<T> {
  maxBytes?: number;
  oversized?: T;
}

/** The JSON text `append` keeps for `value` (`oversized` for one over `maxBytes`) and its UTF-8 bytes, encoded once. */
export function appendedText<T>(value: T, options: AppendOptions<T>): { json: string; bytes: number } {
  if (options.maxBytes !== undefined) assertMaxBytes(options.maxBytes);
  const json = encodeValue(value);
  const bytes = Buffer.byteLength(json);
  if (options.oversized === undefined || options.maxBytes === undefined || bytes <= options.maxBytes) return { json, bytes };
  const stand = encodeValue(options.oversized, 'oversized value');
  return { json: stand, bytes: Buffer.byteLength(stand) };
}

/** The texts Redis answers with, reused by the memory store so both fail alike. */
export const WRONG_TYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
export const NOT_AN_INTEGER = 'ERR value is not an integer or out of range';
