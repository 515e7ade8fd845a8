/**
 * Why a client call failed: `UNAVAILABLE` (the server cannot be reached, the child exited, the connection
 * dropped), `TIMEOUT`, `CANCELLED` (the caller's signal), `TOO_LARGE` (a message over `maxMessageBytes`),
 * `SESSION_EXPIRED` (the server forgot the session: the client re-initializes), `PROTOCOL` (the server broke the
 * protocol or speaks no revision we do), `RPC` (the server answered with a JSON-RPC error: `rpcCode`, `data`),
 * `INPUT_REQUIRED` (a 2026-07-28 server asked for input, `data` = its `inputRequests`, and no `onRequest` answered
 * it), `AUTH` (OAuth authorization failed: metadata, registration, a refused grant, a mismatched `iss` or
 * `resource`, or scope step-ups exhausted), `CONFIG` (the client's options cannot work; thrown by its constructor),
 * `UNSUPPORTED` (the server did not declare what the call needs: the Skills extension, its `directoryRead`),
 * `VERIFICATION` (a skill or a skill file failed verification: an `McpSkillVerificationError`), `CLOSED` (the
 * client was closed).
 * @publicApi
 */
export type McpClientErrorCode =
  | 'UNAVAILABLE'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'TOO_LARGE'
  | 'SESSION_EXPIRED'
  | 'PROTOCOL'
  | 'RPC'
  | 'INPUT_REQUIRED'
  | 'AUTH'
  | 'CONFIG'
  | 'UNSUPPORTED'
  | 'VERIFICATION'
  | 'CLOSED';

/** A failed client call; `retryable` says whether the same call may succeed later. @publicApi */
export class McpClientError extends Error {
  /** The JSON-RPC error code, for `RPC`. */
  readonly rpcCode?: number;
  /** The JSON-RPC error's `data`, for `RPC`; the unanswered `inputRequests`, for `INPUT_REQUIRED`. */
  readonly data?: unknown;
  /** The HTTP status that caused it, when there was one. */
  readonly status?: number;

  constructor(
    readonly code: McpClientErrorCode,
    message: string,
    details: { rpcCode?: number; data?: unknown; status?: number } = {},
  ) {
    super(message);
    this.name = 'McpClientError';
    this.rpcCode = details.rpcCode;
    this.data = details.data;
    this.status = details.status;
  }

  get retryable(): boolean {
    return this.code === 'UNAVAILABLE' || this.code === 'TIMEOUT' || this.code === 'SESSION_EXPIRED';
  }
}

/** A failure as the client reports it: an McpClientError as it is, anything else `UNAVAILABLE` with `message`. */
export function orUnavailable(error: unknown, message: string): McpClientError {
  return error instanceof McpClientError ? error : new McpClientError('UNAVAILABLE', message);
}
