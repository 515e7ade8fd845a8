import { HttpException } from '@nestjs/common';
import type { McpErrorEnvelope } from '../core/results/envelope.types.js';
import { errorBody, McpToolError } from '../core/errors/mcp-tool.error.js';
import { errorCodeForHttpStatus, MCP_ERROR_CODES } from '../core/errors/error-codes.js';
import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';

/**
 * Turns anything a tool threw into an error envelope. `McpToolError` and 4xx `HttpException`s carry messages
 * meant for the caller; anything else is reported as a generic `INTERNAL_ERROR` (its message and stack stay
 * in the server log), and `internal` is set so the caller logs it.
 */
export function errorToEnvelope(error: unknown): { envelope: McpErrorEnvelope; internal: boolean } {
  if (error instanceof McpToolError || error instanceof McpStoreUnavailableError)
    return { envelope: { status: 'error', error: error.toErrorBody() }, internal: false };
  if (error instanceof HttpException && error.getStatus() < 500) {
    // A guard's 403, a pipe's 400...: the catalogue says which code each status is.
    const code = errorCodeForHttpStatus(error.getStatus());
    return { envelope: { status: 'error', error: errorBody(code, httpExceptionMessage(error)) }, internal: false };
  }
  return {
    envelope: { status: 'error', error: errorBody('INTERNAL_ERROR', MCP_ERROR_CODES.INTERNAL_ERROR.message()) },
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
