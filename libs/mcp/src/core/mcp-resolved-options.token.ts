/** Injection token of the options after defaults and checks (`McpResolvedOptions`, see `resolveMcpOptions`). */
export const MCP_RESOLVED_OPTIONS = Symbol('MCP_RESOLVED_OPTIONS');

/**
 * What core reads of the resolved options: the server's identity and the JSON limits. `McpResolvedOptions` (options/,
 * a room above core) satisfies it, so core names no type of the room above it.
 */
export interface McpCoreSettings {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly instructions?: string;
  readonly limits: { readonly maxJsonDepth: number; readonly maxJsonCollectionSize: number };
}
