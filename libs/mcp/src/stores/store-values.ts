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

/** Redis `PX` takes a positive whole number of milliseconds; the memory store enforces the same. */
export function assertTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be a positive integer, got ${String(ttlMs)}.`);
}

/** `LTRIM key -0 -1` would keep the whole list, so a bound below 1 is refused rather than ignored. */
export function assertMaxLength(maxLength: number): void {
  if (!Number.isInteger(maxLength) || maxLength <= 0)
    throw new RangeError(`maxLength must be a positive integer, got ${String(maxLength)}.`);
}

/** A byte bound of a list (`append`'s `maxBytes`): a positive whole number of bytes of JSON text. */
export function assertMaxBytes(maxBytes: number): void {
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) throw new RangeError(`maxBytes must be a positive integer, got ${String(maxBytes)}.`);
}

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
