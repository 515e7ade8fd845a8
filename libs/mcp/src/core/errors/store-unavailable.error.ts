import type { McpErrorBody } from '../results/envelope.types.js';
import { MCP_ERROR_CODES } from './error-codes.js';
import { errorBody } from './mcp-tool.error.js';

/**
 * The shared store or message bus (Redis) cannot be reached right now: the connection is down, being
 * re-established, or a command timed out. Retryable: answered as `UNAVAILABLE` (HTTP 503, JSON-RPC -32000, or
 * an error envelope), never as a 500. Its message is for the server log (it may name the Redis host); clients
 * get the catalogue's text. The original error is in `cause`.
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
