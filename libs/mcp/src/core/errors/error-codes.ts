import { JsonRpcErrorCode } from '../json-rpc/json-rpc-error-codes.js';

/** What the catalogue knows about one error code. @publicApi */
export interface McpErrorCodeSpec {
  /**
   * `error.code` of the JSON-RPC error when a request is refused with this code as a whole (its `data` then
   * carries the envelope); a tool answering with it sends a result with `isError: true` instead.
   */
  readonly jsonRpcCode: number;
  /** HTTP status when a whole HTTP request is refused with this code (401, 403, 429, 503...). */
  readonly httpStatus: number;
  /** Default `retryable` flag of an envelope with this code. */
  readonly retryable: boolean;
  /** Default `retry_after_ms` hint (and `Retry-After` header of an HTTP refusal), when the code has one. */
  readonly retryAfterMs?: number;
  /** The Nest `HttpException` status a thrown exception with this code comes from (a guard's 403...). */
  readonly fromHttpStatus?: number;
  /** The client-facing message; `detail` says what exactly (never internals: it goes to the client). */
  readonly message: (detail?: string) => string;
}

const SERVER_ERROR = JsonRpcErrorCode.SERVER_ERROR;

/** `prefix: detail`, or the prefix alone. */
const withDetail = (prefix: string) => (detail?: string) => (detail ? `${prefix}: ${detail}` : prefix);

/**
 * The one catalogue of error codes: JSON-RPC code, HTTP status, `retryable` flag (and hint) and message of each.
 * Tools may use domain codes of their own (`CITY_NOT_FOUND`), not retryable by default.
 * @publicApi
 */
export const MCP_ERROR_CODES = {
  VALIDATION_ERROR: {
    jsonRpcCode: JsonRpcErrorCode.INVALID_PARAMS,
    httpStatus: 400,
    retryable: false,
    fromHttpStatus: 400,
    message: withDetail('Invalid arguments'),
  },
  INTERNAL_ERROR: {
    jsonRpcCode: JsonRpcErrorCode.INTERNAL_ERROR,
    httpStatus: 500,
    retryable: false,
    message: () => 'The tool failed unexpectedly; the error was logged on the server.',
  },
  TIMEOUT: { jsonRpcCode: SERVER_ERROR, httpStatus: 504, retryable: true, fromHttpStatus: 408, message: withDetail('Timed out') },
  CANCELLED: { jsonRpcCode: SERVER_ERROR, httpStatus: 409, retryable: false, message: withDetail('Cancelled') },
  CONFLICT: { jsonRpcCode: SERVER_ERROR, httpStatus: 409, retryable: false, fromHttpStatus: 409, message: withDetail('Conflict') },
  UNAUTHORIZED: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 401,
    retryable: false,
    fromHttpStatus: 401,
    message: () => 'Authentication required',
  },
  INVALID_TOKEN: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 401,
    retryable: false,
    message: (detail?: string) => detail ?? 'The credentials could not be verified',
  },
  TOKEN_EXPIRED: { jsonRpcCode: SERVER_ERROR, httpStatus: 401, retryable: false, message: () => 'The access token has expired' },
  FORBIDDEN: { jsonRpcCode: SERVER_ERROR, httpStatus: 403, retryable: false, fromHttpStatus: 403, message: withDetail('Forbidden') },
  NOT_FOUND: { jsonRpcCode: SERVER_ERROR, httpStatus: 404, retryable: false, fromHttpStatus: 404, message: withDetail('Not found') },
  JOB_NOT_FOUND: { jsonRpcCode: SERVER_ERROR, httpStatus: 404, retryable: false, message: () => 'Job not found' },
  PAYLOAD_TOO_LARGE: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 413,
    retryable: false,
    fromHttpStatus: 413,
    message: withDetail('Payload Too Large'),
  },
  UNSUPPORTED_MEDIA_TYPE: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 415,
    retryable: false,
    fromHttpStatus: 415,
    message: withDetail('Unsupported Media Type'),
  },
  RATE_LIMITED: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 429,
    retryable: true,
    fromHttpStatus: 429,
    message: withDetail('Too Many Requests'),
  },
  QUOTA_EXCEEDED: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 429,
    retryable: true,
    // Records free up as they expire, not within milliseconds.
    retryAfterMs: 60_000,
    message: (detail?: string) => detail ?? 'A quota is exhausted; retry later.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 409,
    retryable: false,
    message: () => 'This idempotency key was already used with different arguments; use a new key for a new request.',
  },
  UNAVAILABLE: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 503,
    retryable: true,
    retryAfterMs: 1_000,
    fromHttpStatus: 503,
    message: (detail?: string) => (detail ? `Service Unavailable: ${detail}` : 'Service temporarily unavailable; retry shortly.'),
  },
  CLIENT_UNREACHABLE: { jsonRpcCode: SERVER_ERROR, httpStatus: 400, retryable: false, message: withDetail('The client cannot be reached') },
  CLIENT_REQUEST_FAILED: { jsonRpcCode: SERVER_ERROR, httpStatus: 502, retryable: false, message: withDetail('The client refused') },
  /** An upstream (an OpenAPI operation, an upstream MCP server) answered more bytes than the configured bound. */
  RESPONSE_TOO_LARGE: {
    jsonRpcCode: SERVER_ERROR,
    httpStatus: 502,
    retryable: false,
    message: withDetail('The upstream answer is too large'),
  },
  /** A 4xx `HttpException` whose status has no code of its own. */
  REQUEST_REJECTED: { jsonRpcCode: SERVER_ERROR, httpStatus: 400, retryable: false, message: withDetail('Request rejected') },
} as const satisfies Record<string, McpErrorCodeSpec>;

/** A code from the built-in catalogue. @publicApi */
export type McpBuiltInErrorCode = keyof typeof MCP_ERROR_CODES;

const CATALOGUE: Readonly<Record<string, McpErrorCodeSpec>> = MCP_ERROR_CODES;

/** The catalogue entry of a built-in code. */
export function errorCodeSpec(code: McpBuiltInErrorCode): McpErrorCodeSpec {
  return CATALOGUE[code];
}

/** Default `retryable` for a code: the catalogue's flag, `false` for domain codes. */
export function isRetryableByDefault(code: string): boolean {
  return CATALOGUE[code]?.retryable ?? false;
}

const CODE_BY_HTTP_STATUS: ReadonlyMap<number, McpBuiltInErrorCode> = new Map(
  (Object.keys(CATALOGUE) as McpBuiltInErrorCode[]).flatMap((code) => {
    const status = CATALOGUE[code].fromHttpStatus;
    return status === undefined ? [] : [[status, code] as const];
  }),
);

/** The code a Nest `HttpException` with this (4xx) status becomes: `REQUEST_REJECTED` when none is listed. */
export function errorCodeForHttpStatus(status: number): McpBuiltInErrorCode {
  return CODE_BY_HTTP_STATUS.get(status) ?? 'REQUEST_REJECTED';
}

/** The `Retry-After` header value (whole seconds, rounded up) of a retry hint in milliseconds. */
export function retryAfterHeader(retryAfterMs: number): string {
  return String(Math.ceil(retryAfterMs / 1000));
}
