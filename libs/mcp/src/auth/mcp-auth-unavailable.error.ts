/**
 * The credentials could not be checked because what checks them (the authorization server's introspection or
 * JWKS endpoint) is down: a 503 with `Retry-After`, never a 401 (the token may well be good) nor a 500.
 */
export class McpAuthUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'McpAuthUnavailableError';
  }
}
