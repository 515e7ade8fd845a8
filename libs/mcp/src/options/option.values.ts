import { invalidOption, option, type McpOptionDeclaration } from './option.builder.js';

type Problem<T> = string | ((value: T) => string);
const say = <T>(problem: Problem<T>, value: T) => (typeof problem === 'string' ? problem : problem(value));

/** A value `valid` accepts, else refused with `problem`; unset stays unset. */
export const checked = <T>(valid: (value: T) => boolean, problem: Problem<T>): McpOptionDeclaration<T, T | undefined> =>
  option<T, T | undefined>((value, at) => {
    if (value !== undefined && !valid(value)) throw invalidOption(at, say(problem, value));
    return value;
  });

/** A value that must be given and that `valid` accepts (`valid` sees undefined too). */
export const required = <T>(valid: (value: T | undefined) => boolean, problem: Problem<T | undefined>): McpOptionDeclaration<T, T> =>
  option<T, T>((value, at) => {
    if (!valid(value)) throw invalidOption(at, say(problem, value));
    return value!;
  });

/** A value passed as it is: the user's own object (an authenticator, a registry) or one checked by its group. */
export const given = <T>(): McpOptionDeclaration<T, T | undefined> => option<T, T | undefined>((value) => value);

/** On only when exactly `true`; anything else is off, unchecked. */
export const onlyTrue = (): McpOptionDeclaration<boolean, boolean> => option<boolean, boolean>((value) => value === true);

/** An optional string. */
export const text = () => checked<string>((value) => typeof value === 'string', 'must be a string');

const isBoolean = (value: unknown) => typeof value === 'boolean';
const notBoolean = (value: unknown) => `must be a boolean, got ${String(value)}`;

/** A boolean, `fallback` when unset (undefined: unset stays unset). */
export const flag = <F extends boolean | undefined>(fallback: F): McpOptionDeclaration<boolean, boolean | F> =>
  option<boolean, boolean | F>((value, at) => checked<boolean>(isBoolean, notBoolean).resolve(value, at, undefined) ?? fallback);

/** A whole number `valid` accepts (`must be <what>, got ...`), `fallback` when unset. */
const integer = <F extends number | undefined>(fallback: F, valid: (value: number) => boolean, what: string) =>
  option<number, number | F>((value, at) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || !valid(value))
      throw invalidOption(at, `must be ${what}, got ${String(value)}`);
    return value;
  });

/** A whole number above 0, `fallback` when unset. */
export const positiveInteger = <F extends number | undefined>(fallback: F) => integer(fallback, (value) => value > 0, 'a positive integer');

/** A whole number of at least 0, `fallback` when unset. */
export const nonNegativeInteger = (fallback: number) => integer(fallback, (value) => value >= 0, 'an integer of at least 0');

/** A whole number from `min` to `max`, `fallback` when unset. */
export const integerIn = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  integer(
    fallback,
    (value) => value >= min && value <= max,
    `an integer ${max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`}`,
  );

/** One of `allowed`, `fallback` when unset. */
export const oneOf = <T extends string>(allowed: readonly T[], fallback: T): McpOptionDeclaration<T, T> =>
  option<T, T>((value, at) => {
    if (value !== undefined && !allowed.includes(value))
      throw invalidOption(at, `must be one of ${allowed.join(', ')}, got "${String(value)}"`);
    return value ?? fallback;
  });

/** A list of what `valid` accepts, copied; `fallback` when unset. */
export const listOf = <T, F extends T[] | undefined>(valid: (item: unknown) => boolean, problem: string, fallback: F) =>
  option<T[], T[] | F>((value, at) => {
    if (value !== undefined && (!Array.isArray(value) || !value.every(valid))) throw invalidOption(at, problem);
    return value ? [...value] : fallback;
  });

/** A list of strings, copied; `[]` when unset. */
export const stringList = () => listOf<string, string[]>((item) => typeof item === 'string', 'must be an array of strings', []);

/** Checks an absolute http(s) URL (`''` counts as unset) and returns it as origin + path, without a trailing slash. */
export function checkHttpUrl(value: string | undefined, at: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    throw invalidOption(at, `must be an absolute http(s) URL, got "${value}"`);
  }
}

/** A URL path, normalised (`mcp`, `/mcp/` → `/mcp`), `fallback` when unset. */
export const urlPath = (fallback: string): McpOptionDeclaration<string, string> =>
  option<string, string>((value, at) => normalizePath(value ?? fallback, at));

/** `mcp`, `/mcp/` → `/mcp`; the path must be a plain absolute path. */
export function normalizePath(path: string, option = 'path'): string {
  const value = typeof path === 'string' ? `/${path.trim().replace(/^\/+|\/+$/g, '')}` : '';
  if (value === '/' || !/^\/[A-Za-z0-9._~\-/]+$/.test(value))
    throw invalidOption(option, `must be a non-root URL path such as "/mcp", got "${String(path)}"`);
  return value;
}
