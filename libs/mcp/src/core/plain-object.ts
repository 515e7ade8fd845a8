/** A JSON object: an object that is neither null nor an array (what a parsed `{…}` is). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An object literal: its prototype is `Object.prototype` or null. Stricter than {@link isPlainObject}, for values a
 * user hands in (options, DTO defaults) where a class instance — a Redis client, a Date — must not be walked as data.
 */
export function isObjectLiteral(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
