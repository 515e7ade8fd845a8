/** A JSON object: an object that is neither null nor an array (what a parsed `{…}` is). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object literal (prototype `Object.prototype` or null): stricter than {@link isPlainObject}, so class instances are not walked. */
export function isObjectLiteral(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
