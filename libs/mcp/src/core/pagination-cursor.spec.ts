import { JsonRpcErrorCode } from './json-rpc/json-rpc-error-codes.js';
import { decodeCursor, encodeCursor } from './pagination-cursor.js';
import { McpProtocolError } from './errors/protocol-error.js';

function decodeError(cursor: unknown, total: number): McpProtocolError {
  try {
    decodeCursor(cursor, total);
  } catch (error) {
    return error as McpProtocolError;
  }
  throw new Error(`decodeCursor(${JSON.stringify(cursor)}, ${total}) did not throw`);
}

describe('pagination cursor', () => {
  it('round-trips offsets inside the list', () => {
    for (const offset of [1, 2, 50, 99]) expect(decodeCursor(encodeCursor(offset), 100)).toBe(offset);
  });

  it('is opaque: not the plain offset, URL-safe', () => {
    const cursor = encodeCursor(2);
    expect(cursor).not.toBe('2');
    expect(cursor).not.toContain('2');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('is stable: the same offset gives the same cursor', () => {
    expect(encodeCursor(10)).toBe(encodeCursor(10));
    expect(encodeCursor(10)).not.toBe(encodeCursor(11));
  });

  it('absent cursors start at 0', () => {
    expect(decodeCursor(undefined, 5)).toBe(0);
    expect(decodeCursor(null, 5)).toBe(0);
    expect(decodeCursor(undefined, 0)).toBe(0);
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['the empty string', ''],
    ['a plain number string', '2'],
    ['a number', 2],
    ['an object', { offset: 2 }],
    ['a base64 of another prefix', Buffer.from('x:2').toString('base64url')],
    ['a non-integer offset', Buffer.from('o:1.5').toString('base64url')],
    ['a negative offset', Buffer.from('o:-1').toString('base64url')],
  ])('rejects %s with -32602', (_label, cursor) => {
    const error = decodeError(cursor, 10);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect(error.code).toBe(JsonRpcErrorCode.INVALID_PARAMS);
    expect(error.toJsonRpcError()).toEqual({ code: -32602, message: 'Invalid params: unknown or expired cursor' });
  });

  it('rejects offset 0 (never issued) and offsets at or beyond the end', () => {
    expect(decodeError(encodeCursor(0), 10).code).toBe(-32602);
    expect(decodeError(encodeCursor(10), 10).code).toBe(-32602);
    expect(decodeError(encodeCursor(11), 10).code).toBe(-32602);
  });

  it('an issued cursor becomes invalid when the list shrinks', () => {
    const cursor = encodeCursor(4);
    expect(decodeCursor(cursor, 5)).toBe(4);
    expect(decodeError(cursor, 4).code).toBe(-32602);
  });
});
