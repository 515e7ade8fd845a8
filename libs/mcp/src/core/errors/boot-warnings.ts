import { codedBuilders, type McpBootErrorEntry } from './boot-errors.js';

/**
 * A boot warning code: `MCP_WARN_`, the area, what is surprising (`MCP_WARN_DTO_WITHOUT_RULES`). Stable:
 * `docs/errors.md` lists each with what to do. A warning leaves the boot running; the code leads its line so a user
 * can search it.
 */
export type McpBootWarningCode = `MCP_WARN_${string}`;

/** An area's warnings: entries as the boot errors' (code, message, fix), listed with them in `docs/errors.md`. */
type Entries = Record<string, McpBootErrorEntry<any, McpBootWarningCode>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each entry has its own arguments

/** An entry as a warning site calls it: the line to log, code first; `code` lets the reference check list it. */
type Builders<T extends Entries> = {
  readonly [K in keyof T]: ((...args: Parameters<T[K]['message']>) => string) & { readonly code: McpBootWarningCode; readonly entry: T[K] };
};

/** An area's boot warnings, as {@link bootErrors} builds its errors: `logger.warn(Warnings.dtoWithoutRules(…))`. */
export function bootWarnings<const T extends Entries>(entries: T): Builders<T> {
  return codedBuilders(entries, (code, message) => `${code}: ${message}`) as Builders<T>;
}
