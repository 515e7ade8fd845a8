import type { McpToolContext } from '../interfaces/mcp-tool-context.interface.js';

/**
 * What a resource, prompt or completion handler knows about the request it serves: the JSON-RPC id, session,
 * principal, tenant, protocol revision, an AbortSignal (client cancellation), and progress and logging as for
 * tools. The feature-specific contexts extend it.
 * @publicApi
 */
export type McpHandlerContext = Omit<McpToolContext, 'toolName'>;
