/**
 * Refuses a whole MCP HTTP request (401, 403, 429...) with a JSON-RPC error whose `data` is the error envelope,
 * plus extra headers (`WWW-Authenticate`, `Retry-After`). Rendered by `McpHttpRefusalFilter`.
 */
export class McpHttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly retryable = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'McpHttpRefusal';
  }
}
