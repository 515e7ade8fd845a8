import { SetMetadata } from '@nestjs/common';

/** Class metadata marking a provider as a JSON-RPC method handler the dispatcher serves. */
export const MCP_METHOD_HANDLER_METADATA = 'mcp:method-handler';

/**
 * Marks an `McpMethodHandler` (or `McpMethodHandlerGroup`) provider: the one way a feature contributes methods.
 * Collected at `onModuleInit`, served at `onApplicationBootstrap` (registries filled) when `isServed()` is true.
 * @example
 * @McpMethodHandlerProvider()
 * @Injectable()
 * export class PingHandler implements McpMethodHandler { readonly method = 'ping'; handle() { return {}; } }
 */
export const McpMethodHandlerProvider = (): ClassDecorator => SetMetadata(MCP_METHOD_HANDLER_METADATA, true);
