/** A caller made too many credential checks that cost a request to the authorization server: a 429 with `Retry-After`. */
export class McpAuthThrottledError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'McpAuthThrottledError';
  }
}
