import type { LogLevel } from '@nestjs/common';

/** `LOG_LEVEL` values, most severe first: each one prints its level and those before it. */
const LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const satisfies readonly LogLevel[];

/**
 * The Nest log levels `LOG_LEVEL` asks for: `log` by default (fatal, error, warn, log), `debug` adds the debug
 * lines, `verbose` the per-tool detail (which validation path each tool takes, the error codes tools answer with).
 * Undefined for a value that is not a level.
 */
export function logLevelsFromEnv(value: string | undefined): LogLevel[] | undefined {
  const level = value === undefined || value === '' ? 'log' : value.toLowerCase();
  const index = (LEVELS as readonly string[]).indexOf(level);
  return index < 0 ? undefined : LEVELS.slice(0, index + 1);
}

/** The values `LOG_LEVEL` takes, for the message refusing another. */
export const LOG_LEVEL_NAMES: readonly string[] = LEVELS;
