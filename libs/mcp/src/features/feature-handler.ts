import { HttpException, type Logger } from '@nestjs/common';
import { createToolContext } from '../execution/tool-context.factory.js';
import type { McpCall } from '../core/method-handler.interface.js';
import { JsonRpcErrorCode } from '../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../core/errors/protocol-error.js';
import { httpExceptionMessage } from '../execution/error-envelope.js';
import { McpControlFlowSignal } from '../core/control-flow.signal.js';
import type { McpHandlerContext } from './mcp-handler-context.interface.js';
import { clientText } from '../core/client-text.js';
import { errorLogText } from '../core/error-log-text.js';
import { callerOf, clientCapabilitiesOf, MCP_CALLER, MCP_CLIENT_CAPABILITIES } from '../core/caller-headers.js';

/** Calls a resource, prompt or completion method with `(payload, context)` through Nest's guards and interceptors. */
export type McpFeatureHandler<C extends McpHandlerContext> = (payload: unknown, context: C) => Promise<unknown>;

/**
 * Runs `invoke` with a handler context for `call`, built by the tools' context factory: progress and logs go to the
 * request's channel and stop when the request ends; the caller (its credential headers) and its client capabilities
 * ride along under their symbols, as on a tool's context.
 */
export async function withHandlerContext<T>(call: McpCall, invoke: (context: McpHandlerContext) => Promise<T>): Promise<T> {
  const meta = call.params._meta;
  const handle = createToolContext({
    requestId: call.id,
    toolName: '', // not part of a handler context (picked out below)
    progressToken: typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).progressToken : undefined,
    request: call.context,
    signal: call.signal,
  });
  const { requestId, sessionId, protocolVersion, transport, principal, tenant, signal, reportProgress, log } = handle.context;
  const context: McpHandlerContext = { requestId, sessionId, protocolVersion, transport, principal, tenant, signal, reportProgress, log };
  // Out of the public shape, as on a tool's context: a relayed read or prompt forwards the caller's credential with it.
  Object.assign(context, { [MCP_CALLER]: callerOf(handle.context), [MCP_CLIENT_CAPABILITIES]: clientCapabilitiesOf(handle.context) });
  try {
    return await invoke(context);
  } finally {
    handle.finish();
  }
}

/**
 * What a thrown error becomes on the wire. 4xx `HttpException`s (a guard's 403, a `BadRequestException`) carry
 * messages meant for the caller: -32602 for 400, else -32000 with the status. Anything else is logged with
 * `failure` and reported as a bare -32603, so no message or stack leaves the server.
 */
export function toProtocolError(error: unknown, logger: Logger, failure: string): McpProtocolError {
  if (error instanceof McpProtocolError) return error;
  if (error instanceof McpControlFlowSignal) throw error; // an input round, not a failure
  if (error instanceof HttpException && error.getStatus() < 500) {
    const status = error.getStatus();
    return new McpProtocolError(
      status === 400 ? JsonRpcErrorCode.INVALID_PARAMS : JsonRpcErrorCode.SERVER_ERROR,
      httpExceptionMessage(error),
      { status },
    );
  }
  return internalError(logger, `${clientText(failure, 500)}: ${errorLogText(error)}`);
}

/** Logs `failure` and answers a bare -32603: no message or stack leaves the server. */
export function internalError(logger: Logger, failure: string): McpProtocolError {
  logger.error(failure);
  return new McpProtocolError(JsonRpcErrorCode.INTERNAL_ERROR, 'Internal error');
}
