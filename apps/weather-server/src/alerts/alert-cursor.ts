import { McpToolError } from '@nest-mcp/core';

/**
 * `list_weather_alerts` cursors: the position of the last alert a page returned, opaque to clients. Positions
 * only grow, so a page continues where the previous one stopped even when alerts were deleted in between.
 */
export function encodeAlertCursor(position: number): string {
  return Buffer.from(`after:${position}`).toString('base64url');
}

/** The position a cursor stands for; a cursor this server did not hand out is a VALIDATION_ERROR on `cursor`. */
export function decodeAlertCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match)
    throw new McpToolError('VALIDATION_ERROR', 'Invalid cursor: pass the nextCursor of a previous list_weather_alerts answer', {
      fields: ['cursor'],
    });
  return Number(match[1]);
}
