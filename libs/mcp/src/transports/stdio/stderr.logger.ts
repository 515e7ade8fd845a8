import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger, writing every level to stderr: the logger to use over stdio, where stdout is
 * reserved for protocol messages.
 * @publicApi
 */
export class McpStderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
