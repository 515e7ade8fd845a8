import { Injectable } from '@nestjs/common';
import { LOG_LEVELS, type McpLogLevel } from '../mcp-log-level.js';
import { JsonRpcErrorCode } from '../json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../errors/protocol-error.js';
import type { McpCall, McpMethodHandler } from '../method-handler.interface.js';
import { McpMethodHandlerProvider } from '../method-handler.decorator.js';

/** `logging/setLevel`: later `notifications/message` of this session are sent at that level or above. */
@McpMethodHandlerProvider()
@Injectable()
export class LoggingSetLevelHandler implements McpMethodHandler {
  readonly method = 'logging/setLevel';

  async handle({ params, context }: McpCall): Promise<Record<string, unknown>> {
    const level = params.level;
    if (typeof level !== 'string' || !LOG_LEVELS.includes(level as McpLogLevel)) {
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`);
    }
    await context.setLogLevel?.(level as McpLogLevel);
    return {};
  }
}
