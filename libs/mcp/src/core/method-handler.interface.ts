import type { McpRequestContext } from './mcp-request-context.interface.js';
import type { JsonRpcId, JsonRpcParams } from './json-rpc/json-rpc.types.js';

/** One incoming request as a method handler sees it. */
export interface McpCall {
  readonly id: JsonRpcId;
  readonly params: JsonRpcParams;
  readonly context: McpRequestContext;
  /** Aborted by `notifications/cancelled` for this request. */
  readonly signal: AbortSignal;
  readonly controller: AbortController;
}

/** Serves one JSON-RPC method (`McpProtocolError` for protocol errors); contributed by `@McpMethodHandlerProvider()`. */
export interface McpMethodHandler {
  readonly method: string;
  /**
   * Whether the method is served at all, asked once at `onApplicationBootstrap`, after every `onModuleInit`
   * (registries are full by then). False leaves it unknown (-32601), e.g. `prompts/*` without any prompt.
   * Absent: always served.
   */
  isServed?(): boolean;
  handle(call: McpCall): Promise<Record<string, unknown>> | Record<string, unknown>;
}

/** A provider serving several methods that share their state and `isServed` (the `tasks/*` methods, say). */
export interface McpMethodHandlerGroup {
  readonly handlers: readonly McpMethodHandler[];
}
