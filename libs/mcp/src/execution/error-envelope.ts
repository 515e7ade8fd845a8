import { HttpException } from '@nestjs/common';
import type { McpErrorEnvelope } from '../core/results/envelope.types.js';
import { errorBody, McpToolError } from '../core/errors/mcp-tool.error.js';

/** HTTP statuses a Nest HttpException may carry, mapped to envelope codes (guards throw 403, for instance). */
const HTTP_STATUS_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

/**
 * Turns anything a tool threw into an error envelope. `McpToolError` and 4xx `HttpException`s carry messages
 * meant for the caller; anything else is reported as a generic `INTERNAL_ERROR` (its message and stack stay
 * in the server log), and `internal` is set so the caller logs it.
 */
export function errorToEnvelope(error: unknown): { envelope: McpErrorEnvelope; internal: boolean } {
  if (error instanceof McpToolError) return { envelope: { status: 'error', error: error.toErrorBody() }, internal: false };
  if (error instanceof Error && error.name === 'McpStoreUnavailableError') {
    return { envelope: { status: 'error', error: errorBody('UNAVAILABLE', 'A backing service is unavailable; retry shortly.', { retryable: true, retryAfterMs: 1000 }) }, internal: false };
  }
  if (error instanceof HttpException && error.getStatus() < 500) {
    const code = HTTP_STATUS_CODES[error.getStatus()] ?? 'REQUEST_REJECTED';
    return { envelope: { status: 'error', error: errorBody(code, httpExceptionMessage(error)) }, internal: false };
  }
  return {
    envelope: { status: 'error', error: errorBody('INTERNAL_ERROR', 'The tool failed unexpectedly; the error was logged on the server.') },
    internal: true,
  };
}

/** The caller-facing message of a Nest HttpException (its response's `message`, joined when a list). */
export function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return error.message;
}
