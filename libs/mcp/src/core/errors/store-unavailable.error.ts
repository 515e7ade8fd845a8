import type { McpErrorBody } from '../results/envelope.types.js';
import { MCP_ERROR_CODES } from './error-codes.js';
import { errorBody } from './mcp-tool.error.js';

/**
 * The shared store or bus (Redis) cannot be reached right now. Answered as retryable `UNAVAILABLE` (503), never a
 * 500; the message (which may name the host) is for the log only, the original error in `cause`.
 * @publicApi
 */
export class McpStoreUnavailableError extends Error {
  readonly code = 'UNAVAILABLE';
  readonly retryable = true;
  readonly retryAfterMs = MCP_ERROR_CODES.UNAVAILABLE.retryAfterMs;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpStoreUnavailableError';
  }

  /** The `error` member of the envelope: the catalogue's message, never this error's (server-side) one. */
  toErrorBody(): McpErrorBody {
    return errorBody(this.code, MCP_ERROR_CODES.UNAVAILABLE.message(), { retryable: this.retryable, retryAfterMs: this.retryAfterMs });
  }
}
