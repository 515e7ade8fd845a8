/**
 * The shared store or message bus (Redis) cannot be reached right now: the connection is down, being
 * re-established, or a command timed out. Retryable: answer with HTTP 503 / a `retryable` error, not a 500.
 * The original error is in `cause`.
 * @publicApi
 */
export class McpStoreUnavailableError extends Error {
  readonly retryable = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpStoreUnavailableError';
  }
}
