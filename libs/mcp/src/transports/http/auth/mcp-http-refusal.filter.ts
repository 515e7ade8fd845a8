import type { ServerResponse } from 'node:http';
import type { JsonRpcId } from '../../../core/json-rpc/json-rpc.types.js';
import { ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { nodeResponseOf } from '../http-exchange.js';
import { errorBody } from '../../../core/errors/mcp-tool.error.js';
import { sendHttpError } from '../http-json-rpc.responses.js';
import { McpHttpRefusal } from './mcp-http-refusal.exception.js';
import { McpStoreUnavailableError } from '../../../core/errors/store-unavailable.error.js';
import { McpQuotaExceededError } from '../../../core/errors/quota-exceeded.error.js';

/** Renders the guards' refusals and the store errors that end a whole request, as JSON-RPC errors carrying the envelope. */
@Catch(McpHttpRefusal, McpStoreUnavailableError, McpQuotaExceededError)
export class McpHttpRefusalFilter implements ExceptionFilter {
  catch(caught: McpHttpRefusal | McpStoreUnavailableError | McpQuotaExceededError, host: ArgumentsHost): void {
    const response = nodeResponseOf(host.switchToHttp().getResponse());
    if (response.headersSent) return void response.end();
    sendRefusalOf(response, refusalOf(caught));
  }
}

/** Answers a whole request with the refusal: its status and headers, a JSON-RPC error whose `data` is the envelope. */
export function sendRefusalOf(response: ServerResponse, refusal: McpHttpRefusal, id: JsonRpcId | null = null): void {
  const envelope = {
    status: 'error',
    error: errorBody(refusal.code, refusal.message, { retryable: refusal.retryable, retryAfterMs: refusal.retryAfterMs }),
  };
  sendHttpError(response, refusal.status, refusal.message, { code: refusal.jsonRpcCode, id, headers: refusal.headers, data: envelope });
}

/** A store outage: `UNAVAILABLE` with the catalogue's text, never its own (it names the Redis host); a quota keeps its message. */
export function refusalOf(caught: McpHttpRefusal | McpStoreUnavailableError | McpQuotaExceededError): McpHttpRefusal {
  if (caught instanceof McpStoreUnavailableError) return new McpHttpRefusal('UNAVAILABLE');
  if (caught instanceof McpQuotaExceededError)
    return new McpHttpRefusal('QUOTA_EXCEEDED', caught.message, { retryAfterMs: caught.retryAfterMs });
  return caught;
}
