import { JsonRpcErrorCode } from './json-rpc-error-codes.js';
import { McpProtocolError } from './protocol-error.js';

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
