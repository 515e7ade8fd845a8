import type { LoggerService } from '@nestjs/common';
import { McpStoreMessages } from './store.messages.js';

/** Calls one bus handler; a throw or a rejected promise is logged, so one bad handler cannot starve the rest. */
export function deliverToHandler(
  channel: string,
  handler: (message: unknown) => void,
  message: unknown,
  logger: Pick<LoggerService, 'error'>,
): void {
  const failed = (error: unknown) =>
    logger.error(McpStoreMessages.handlerFailed(channel), error instanceof Error ? error.stack : String(error));
  try {
    const result: unknown = handler(message);
    if (result instanceof Promise) result.catch(failed);
  } catch (error) {
    failed(error);
  }
}
