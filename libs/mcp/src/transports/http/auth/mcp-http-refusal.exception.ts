import { errorCodeSpec, retryAfterHeader, type McpBuiltInErrorCode } from '../../../core/errors/error-codes.js';

/** Refuses a whole MCP HTTP request with a catalogue code (status, JSON-RPC code, retry hint); see `McpHttpRefusalFilter`. */
export class McpHttpRefusal extends Error {
  readonly status: number;
  readonly jsonRpcCode: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly headers: Record<string, string>;

  /** `message` defaults to the catalogue's; `headers` are added (`WWW-Authenticate`...). */
  constructor(
    readonly code: McpBuiltInErrorCode,
    message?: string,
    options: { headers?: Record<string, string>; retryAfterMs?: number } = {},
  ) {
    const spec = errorCodeSpec(code);
    super(message ?? spec.message());
    this.name = 'McpHttpRefusal';
    this.status = spec.httpStatus;
    this.jsonRpcCode = spec.jsonRpcCode;
    this.retryable = spec.retryable;
    this.retryAfterMs = options.retryAfterMs ?? spec.retryAfterMs;
    this.headers = { ...(this.retryAfterMs !== undefined && { 'Retry-After': retryAfterHeader(this.retryAfterMs) }), ...options.headers };
  }
}
