import { McpClientError } from '../../client/mcp-client.error.js';
import type { McpClientCallOptions } from '../../client/mcp-client-options.interface.js';
import { clientText } from '../../core/client-text.js';
import { McpMissingClientCapabilitySignal } from '../../core/missing-client-capability.signal.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { McpElicitationRequest, McpSamplingRequest, McpToolContext } from '../../core/mcp-tool-context.interface.js';

/** The capability our caller needs for each request an upstream may make of it. */
const CAPABILITY: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** The capabilities the gateway declares to its upstreams: it answers these by asking its own caller. */
export const RELAYED_CAPABILITIES = { sampling: {}, elicitation: { form: {} }, roots: {} };

/**
 * Answers an upstream's own requests made during one call (`onRequest` of the client call) by asking the caller
 * of that call through its tool context, so they work in both eras of ours. The upstream gets -32601 when our
 * caller lacks the capability, the refusal or timeout message when our caller refused or did not answer, and a
 * generic -32603 otherwise. The request ends with the call: the context's own signal abandons it.
 */
export function relayClientRequests(context: McpToolContext): NonNullable<McpClientCallOptions['onRequest']> {
  return async (method, params) => {
    const capability = CAPABILITY[method];
    if (capability === undefined) return undefined; // -32601: nothing else is asked of a client
    // The upstream's `_meta` (its progress token) means nothing to our caller.
    const { _meta: _, ...asked } = params ?? {};
    try {
      if (method === 'sampling/createMessage') return await context.sample(asked as McpSamplingRequest);
      if (method === 'elicitation/create') return await context.elicit(asked as McpElicitationRequest);
      return await context.listRoots();
    } catch (error) {
      throw relayError(method, capability, error);
    }
  };
}

/** What the upstream is answered when asking our caller failed (no internals: the upstream is another party). */
function relayError(method: string, capability: string, error: unknown): McpClientError {
  // The session era says so with a tool error, 2026-07-28 with the signal.
  const missing =
    (error instanceof McpToolError && error.code === 'CLIENT_CAPABILITY_MISSING') || error instanceof McpMissingClientCapabilitySignal;
  if (missing) {
    return new McpClientError('RPC', `The calling client does not support ${capability}`, { rpcCode: JsonRpcErrorCode.METHOD_NOT_FOUND });
  }
  // Refused by our caller, not answered in time, or the call cancelled: messages written for clients.
  const said = error instanceof McpToolError ? clientText(error.message, 300) : undefined;
  return new McpClientError('RPC', said ?? `The calling client could not answer ${method}`, { rpcCode: JsonRpcErrorCode.INTERNAL_ERROR });
}
