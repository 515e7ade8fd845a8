import { Injectable } from '@nestjs/common';
import type { McpMethodHandler } from '../method-handler.interface.js';
import { McpMethodHandlerProvider } from '../method-handler.decorator.js';

/** `ping`: answered with `{}` at any time, also before initialization. */
@McpMethodHandlerProvider()
@Injectable()
export class PingHandler implements McpMethodHandler {
  readonly method = 'ping';
  handle(): Record<string, unknown> {
    return {};
  }
}
