import { decodeCursor, encodeCursor } from '../protocol/pagination-cursor.js';

/**
 * One page of a list result (`resources/list`, `prompts/list`...) under `key`: `pageSize` items from the offset
 * the cursor stands for, with a `nextCursor` only when more follow. A cursor we did not issue is -32602.
 */
export function listPage<T>(key: string, items: readonly T[], cursor: unknown, pageSize: number): Record<string, unknown> {
  const start = decodeCursor(cursor, items.length);
  const end = start + pageSize;
  const page = start === 0 && end >= items.length ? items : items.slice(start, end);
  return end < items.length ? { [key]: page, nextCursor: encodeCursor(end) } : { [key]: page };
}
