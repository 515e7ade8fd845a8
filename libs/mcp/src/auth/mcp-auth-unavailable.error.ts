/** The credential checker (introspection, JWKS) is down: a 503 with `Retry-After`, never a 401 (the token may be good). */
export class McpAuthUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'McpAuthUnavailableError';
  }
}
