import { MCP_ERROR_CODES } from './error-codes.js';
import { McpToolError } from './mcp-tool.error.js';

/**
 * A write refused because a tenant holds its quota of records, or the memory store is full. Nothing is evicted
 * (one tenant's flood never costs another its data); answered as retryable `QUOTA_EXCEEDED` (HTTP 429).
 * @publicApi
 */
export class McpQuotaExceededError extends McpToolError {
  constructor(message: string) {
    super('QUOTA_EXCEEDED', message, { retryable: true, retryAfterMs: QUOTA_RETRY_AFTER_MS });
    this.name = 'McpQuotaExceededError';
  }
}

/** The `retry_after_ms` hint of a quota refusal (the catalogue's). */
export const QUOTA_RETRY_AFTER_MS = MCP_ERROR_CODES.QUOTA_EXCEEDED.retryAfterMs;
