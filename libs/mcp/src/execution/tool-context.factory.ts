import { notification } from '../protocol/json-rpc.codec.js';
import type { JsonRpcId } from '../protocol/json-rpc.types.js';
import type { McpRequestContext } from '../interfaces/mcp-request-context.interface.js';
import type { McpLogLevel, McpToolContext } from '../interfaces/mcp-tool-context.interface.js';

/** RFC 5424 severity order, lowest first. */
export const LOG_LEVELS: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The tenant of calls made without authentication. */
export const DEFAULT_TENANT = 'default';

/** A tool context plus `finish()`, which stops progress and log messages once the response is on its way. */
export interface ToolContextHandle {
  readonly context: McpToolContext;
  finish(): void;
}

/** Builds the context a tool handler receives; progress and logs go to the request's channel if it has one. */
export function createToolContext(input: {
  requestId: JsonRpcId;
  toolName: string;
  progressToken: unknown;
  request: McpRequestContext;
  signal: AbortSignal;
}): ToolContextHandle {
  const { request } = input;
  const send = request.send;
  const progressToken = typeof input.progressToken === 'string' || typeof input.progressToken === 'number' ? input.progressToken : undefined;
  let lastProgress = Number.NEGATIVE_INFINITY;
  let finished = false;
  const minimum = LOG_LEVELS.indexOf(request.logLevel ?? 'debug');

  const context: McpToolContext = {
    requestId: input.requestId,
    toolName: input.toolName,
    sessionId: request.sessionId,
    protocolVersion: request.protocolVersion,
    transport: request.transport,
    principal: request.principal,
    tenant: request.principal?.tenant ?? DEFAULT_TENANT,
    signal: input.signal,
    reportProgress(progress, total, message) {
      // The spec wants progress to increase strictly and to stop with the response: drop anything else.
      if (finished || !send || progressToken === undefined || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      send(notification('notifications/progress', params));
    },
    log(level, data, logger) {
      if (finished || !send || LOG_LEVELS.indexOf(level) < minimum) return;
      send(notification('notifications/message', logger === undefined ? { level, data } : { level, logger, data }));
    },
  };
  return {
    context,
    finish: () => {
      finished = true;
    },
  };
}
