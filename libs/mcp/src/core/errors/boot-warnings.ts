import { codedBuilders, type BootEntries } from './boot-errors.js';

/**
 * A boot warning code: `MCP_WARN_`, the area, what is surprising (`MCP_WARN_DTO_WITHOUT_RULES`). Stable:
 * `docs/errors.md` lists each with what to do. A warning leaves the boot running; the code leads its line so a user
 * can search it.
 */
export type McpBootWarningCode = `MCP_WARN_${string}`;

/**
 * An area's boot warnings, as {@link bootErrors} builds its errors (each a code, message and fix, listed with them in
 * `docs/errors.md`): `logger.warn(Warnings.dtoWithoutRules(…))` logs the line, code first.
 */
export function bootWarnings<const T extends BootEntries<McpBootWarningCode>>(entries: T) {
  return codedBuilders(entries, (code, message) => `${code}: ${message}`);
}
