import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger, writing every level to stderr: the logger to use over stdio, where stdout is
 * reserved for protocol messages. Colours only when stderr is a terminal (a host that captures stderr into its log
 * file gets plain text), unless `colors` says otherwise; `NO_COLOR` turns them off as in Nest.
 * @publicApi
 */
export class McpStderrLogger extends ConsoleLogger {
  constructor(contextOrOptions?: string | ConsoleLoggerOptions, options?: ConsoleLoggerOptions) {
    const [context, given] = typeof contextOrOptions === 'string' ? [contextOrOptions, options] : [undefined, contextOrOptions ?? options];
    const colors = given?.colors ?? (!given?.json && Boolean(process.stderr.isTTY) && !process.env.NO_COLOR);
    if (context === undefined) super({ ...given, colors });
    else super(context, { ...given, colors });
  }

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
