import type { McpToolContext } from '../core/mcp-tool-context.interface.js';

/**
 * What a resource, prompt or completion handler knows about the request it serves: the JSON-RPC id, session,
 * principal, tenant, protocol revision, an AbortSignal (client cancellation), and progress and logging as for
 * tools. Server-to-client requests (sampling, elicitation) stay with tools. The feature contexts extend it.
 * @publicApi
 */
export type McpHandlerContext = Pick<
  McpToolContext,
  'requestId' | 'sessionId' | 'protocolVersion' | 'transport' | 'principal' | 'tenant' | 'signal' | 'reportProgress' | 'log'
>;
