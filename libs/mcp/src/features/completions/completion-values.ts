import { isPlainObject } from '../../core/plain-object.js';
/** The most values one `completion/complete` answer may carry (spec). */
export const MAX_COMPLETION_VALUES = 100;

/** The `completion` member of a `completion/complete` result. */
export interface McpCompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * The `completion` for a completer's return value, cut to 100 values (then `hasMore: true`, and `total` = the
 * number of values returned unless the completer gave one); undefined for anything else (a programming error).
 */
export function toCompletionResult(value: unknown): McpCompletionResult | undefined {
  const input = Array.isArray(value) ? { values: value } : value;
  if (!isPlainObject(input) || !Array.isArray(input.values) || !input.values.every((item) => typeof item === 'string')) return undefined;
  const { total, hasMore } = input;
  if (total !== undefined && (!Number.isInteger(total) || (total as number) < 0)) return undefined;
  if (hasMore !== undefined && typeof hasMore !== 'boolean') return undefined;
  const values = input.values as string[];
  if (values.length > MAX_COMPLETION_VALUES) {
    return { values: values.slice(0, MAX_COMPLETION_VALUES), total: (total as number | undefined) ?? values.length, hasMore: true };
  }
  return {
    values: [...values],
    ...(total !== undefined && { total: total as number }),
    ...(hasMore !== undefined && { hasMore }),
  };
}
