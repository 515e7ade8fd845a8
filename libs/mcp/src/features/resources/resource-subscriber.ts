import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { McpSessionStreams } from '../../core/session-streams.interface.js';

/** Where `notifications/resources/updated` for one session (or connection) go. */
export interface ResourceSubscriber {
  /** Identifies the session or connection: subscribing twice from it keeps one subscription. */
  readonly key: string;
  /** Sends a notification; false when it cannot reach the client now (no GET stream on this instance). */
  readonly deliver: (message: JsonRpcMessage) => boolean;
}

/**
 * The subscriber a request stands for, or undefined when later notifications cannot reach its client
 * (Streamable HTTP without a session).
 */
export function subscriberFor(context: McpRequestContext, streams: McpSessionStreams): ResourceSubscriber | undefined {
  const { sessionId, send } = context;
  if (context.transport === 'http') {
    // A POST's stream ends with its response; notifications sent later travel on the session's GET stream.
    if (sessionId === undefined) return undefined;
    return { key: `http:${sessionId}`, deliver: (message) => streams.notifySession(sessionId, message) };
  }
  // The 2024-11-05 HTTP+SSE transport and stdio have one channel for the whole connection, and a request's `send` writes to it.
  const key = sessionId ?? context.cancellationScope;
  if (key === undefined || !send) return undefined;
  return {
    key: `${context.transport}:${key}`,
    deliver: (message) => {
      send(message);
      return true;
    },
  };
}
