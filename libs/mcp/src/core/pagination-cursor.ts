import { JsonRpcErrorCode } from './json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from './errors/protocol-error.js';

const PREFIX = 'o:';

/** An opaque cursor for a list offset (clients must not parse it; we only need it stable). */
export function encodeCursor(offset: number): string {
  return Buffer.from(`${PREFIX}${offset}`).toString('base64url');
}

/** The offset a cursor stands for; absent → 0; anything we did not issue → -32602. */
export function decodeCursor(cursor: unknown, total: number): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor === 'string') {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const offset = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : Number.NaN;
    if (Number.isInteger(offset) && offset > 0 && offset < total) return offset;
  }
  throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: unknown or expired cursor');
}

/** One page of a list under `key` from the cursor's offset, `nextCursor` when more follow; a foreign cursor is -32602. */
export function listPage<T>(key: string, items: readonly T[], cursor: unknown, pageSize: number): Record<string, unknown> {
  const start = decodeCursor(cursor, items.length);
  const end = start + pageSize;
  const page = start === 0 && end >= items.length ? items : items.slice(start, end);
  return end < items.length ? { [key]: page, nextCursor: encodeCursor(end) } : { [key]: page };
}
