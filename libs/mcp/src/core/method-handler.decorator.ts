import { SetMetadata } from '@nestjs/common';

/** Class metadata marking a provider as a JSON-RPC method handler the dispatcher serves. */
export const MCP_METHOD_HANDLER_METADATA = 'mcp:method-handler';

/**
 * Marks a provider that implements `McpMethodHandler` (or `McpMethodHandlerGroup`, several methods): the dispatcher collects every such provider at
 * `onModuleInit` and, at `onApplicationBootstrap` (once every explorer has filled its registry), serves those
 * whose `isServed()` is true. This is the one way a feature contributes methods; nothing calls the dispatcher.
 * @example
 * @McpMethodHandlerProvider()
 * @Injectable()
 * export class PingHandler implements McpMethodHandler { readonly method = 'ping'; handle() { return {}; } }
 */
export const McpMethodHandlerProvider = (): ClassDecorator => SetMetadata(MCP_METHOD_HANDLER_METADATA, true);
