/**
 * The one catalogue of envelope error codes: each code's default `retryable` flag and the HTTP status used
 * when a whole HTTP request is refused with it (401/403/413/429...). Tool authors may use their own domain
 * codes too (`CITY_NOT_FOUND`); unknown codes default to `retryable: false`.
 * @publicApi
 */
export const MCP_ERROR_CODES = {
  VALIDATION_ERROR: { retryable: false, httpStatus: 400 },
  INTERNAL_ERROR: { retryable: false, httpStatus: 500 },
  TIMEOUT: { retryable: true, httpStatus: 504 },
  CANCELLED: { retryable: false, httpStatus: 409 },
  UNAUTHORIZED: { retryable: false, httpStatus: 401 },
  INVALID_TOKEN: { retryable: false, httpStatus: 401 },
  TOKEN_EXPIRED: { retryable: false, httpStatus: 401 },
  FORBIDDEN: { retryable: false, httpStatus: 403 },
  NOT_FOUND: { retryable: false, httpStatus: 404 },
  JOB_NOT_FOUND: { retryable: false, httpStatus: 404 },
  PAYLOAD_TOO_LARGE: { retryable: false, httpStatus: 413 },
  UNSUPPORTED_MEDIA_TYPE: { retryable: false, httpStatus: 415 },
  RATE_LIMITED: { retryable: true, httpStatus: 429 },
  QUOTA_EXCEEDED: { retryable: true, httpStatus: 429 },
  IDEMPOTENCY_KEY_REUSED: { retryable: false, httpStatus: 409 },
  UNAVAILABLE: { retryable: true, httpStatus: 503 },
} as const satisfies Record<string, { retryable: boolean; httpStatus: number }>;

/** A code from the built-in catalogue. @publicApi */
export type McpBuiltInErrorCode = keyof typeof MCP_ERROR_CODES;

/** Default `retryable` for a code: the catalogue's flag, `false` for domain codes. */
export function isRetryableByDefault(code: string): boolean {
  return (MCP_ERROR_CODES as Record<string, { retryable: boolean }>)[code]?.retryable ?? false;
}
