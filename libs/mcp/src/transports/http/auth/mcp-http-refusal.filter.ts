import { ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { JsonRpcErrorCode } from '../../../core/json-rpc/json-rpc-error-codes.js';
import { errorBody } from '../../../core/errors/mcp-tool.error.js';
import { sendHttpError } from '../http-json-rpc.responses.js';
import { McpHttpRefusal } from './mcp-http-refusal.exception.js';
import { McpStoreUnavailableError } from '../../../stores/store-unavailable.error.js';
import { McpQuotaExceededError } from '../../../stores/quota-exceeded.error.js';

/** Renders refusals of the MCP guards: status, headers, and a JSON-RPC error carrying the envelope. */
@Catch(McpHttpRefusal, McpStoreUnavailableError, McpQuotaExceededError)
export class McpHttpRefusalFilter implements ExceptionFilter {
  catch(caught: McpHttpRefusal | McpStoreUnavailableError | McpQuotaExceededError, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    // A store outage (Redis down) is temporary: 503 with a retryable envelope, never a 500.
    const refusal =
      caught instanceof McpStoreUnavailableError
        ? new McpHttpRefusal(503, 'UNAVAILABLE', 'Service temporarily unavailable; retry shortly.', { 'Retry-After': '1' }, true, 1000)
        : caught instanceof McpQuotaExceededError
          ? quotaRefusal(caught)
          : caught;
    if (response.headersSent) return void response.end();
    const envelope = { status: 'error', error: errorBody(refusal.code, refusal.message, { retryable: refusal.retryable, retryAfterMs: refusal.retryAfterMs }) };
    sendHttpError(response, refusal.status, refusal.message, { code: JsonRpcErrorCode.SERVER_ERROR, headers: refusal.headers, data: envelope });
  }
}

/** A store write refused for quota (a tenant's, or the memory store's cap): 429 with the retryable envelope. */
function quotaRefusal(error: McpQuotaExceededError): McpHttpRefusal {
  const retryAfterMs = error.retryAfterMs ?? 60_000;
  return new McpHttpRefusal(429, error.code, error.message, { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) }, true, retryAfterMs);
}
