import { MCP_ERROR_CODES } from './error-codes.js';
import { McpToolError } from './mcp-tool.error.js';

/**
 * A write the store refused because a tenant holds its quota of records (sessions, jobs, idempotency keys) or
 * the memory store holds its maximum of keys. Retryable: room comes back as records expire or are deleted.
 * Nothing is evicted to make room, so one tenant's flood never costs another tenant its data. Answered as
 * `QUOTA_EXCEEDED` (HTTP 429 when a whole request is refused).
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
