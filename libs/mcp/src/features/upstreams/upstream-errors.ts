import { McpClientError } from '../../client/mcp-client.error.js';
import { clientText } from '../../core/client-text.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';

/**
 * What a failed upstream call becomes for our caller: `UNAVAILABLE` (retryable) when the upstream cannot be
 * reached, timed out or dropped the connection; `VALIDATION_ERROR` for its -32602; `CANCELLED`; `RESPONSE_TOO_LARGE`
 * for an answer over the client's `maxMessageBytes`; an McpToolError as it is; anything else
 * `UPSTREAM_ERROR` with the upstream's message (bounded: it goes to our caller).
 */
export function upstreamCallError(upstream: string, error: unknown): McpToolError {
  // Already written for our caller: no credential for the upstream could be had (UNAUTHORIZED, UNAVAILABLE).
  if (error instanceof McpToolError) return error;
  if (!(error instanceof McpClientError)) return new McpToolError('UPSTREAM_ERROR', `The upstream "${upstream}" failed`);
  switch (error.code) {
    case 'UNAVAILABLE':
    case 'TIMEOUT':
    case 'CLOSED':
    case 'SESSION_EXPIRED':
      return new McpToolError('UNAVAILABLE', `The upstream "${upstream}" is unavailable: ${clientText(error.message, 200)}`, {
        retryable: true,
        retryAfterMs: 1_000,
      });
    case 'CANCELLED':
      return new McpToolError('CANCELLED', 'Cancelled');
    case 'TOO_LARGE':
      return new McpToolError('RESPONSE_TOO_LARGE', `The upstream "${upstream}" answered more than this server accepts`);
    case 'RPC':
      if (error.rpcCode === JsonRpcErrorCode.INVALID_PARAMS) return new McpToolError('VALIDATION_ERROR', clientText(error.message, 500));
      return new McpToolError('UPSTREAM_ERROR', `The upstream "${upstream}" refused: ${clientText(error.message, 500)}`);
    default:
      return new McpToolError('UPSTREAM_ERROR', `The upstream "${upstream}" failed: ${clientText(error.message, 200)}`);
  }
}
