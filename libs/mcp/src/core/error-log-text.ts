import { clientText } from './client-text.js';

/** Longest log line an unexpected error gets: its stack, enough to find the failing frame. */
const ERROR_LOG_MAX_CHARACTERS = 4_000;

/** An unexpected error as one log line: its stack (or message), control characters escaped, length bounded. */
export function errorLogText(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : safeString(error);
  return clientText(text, ERROR_LOG_MAX_CHARACTERS);
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
