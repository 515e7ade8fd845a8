import type { JsonRpcMessage } from './json-rpc/json-rpc.types.js';

/**
 * What features and eras need from the streams the transports hold open for sessions: a way to send a server
 * notification to a session, and a say in the shutdown order. The transports' stream hub provides it (bound in
 * `mcp.module.ts`), so code above the transports reaches a session's stream without knowing HTTP or SSE.
 */
export interface McpSessionStreams {
  /**
   * Sends a server notification on the session's standalone (GET) stream, on whichever instance holds it. True
   * when it was written here or handed to the other instances; false when no stream can be reached.
   */
  notifySession(sessionId: string, message: JsonRpcMessage): boolean;
  /**
   * Sends on the session's standalone stream only if this instance holds it: for announcements already
   * broadcast to every instance (each would otherwise forward its copy to the holder).
   */
  notifyHere(sessionId: string, message: JsonRpcMessage): boolean;
  /**
   * Runs `hook` once when shutdown starts, just before every open stream ends with a `retry:` hint: the last
   * chance to write a final message (such as a listen's closing response) on a stream that is still open.
   */
  beforeStreamsEnd(hook: () => void): void;
  /**
   * Calls `listener` when this instance starts holding a session's standalone stream (`open` true) and when it
   * stops: state that follows the stream (a session's resource subscriptions, with `redis`) loads and drops with it.
   */
  onStandaloneStream(listener: (sessionId: string, open: boolean) => void): void;
}

/** Injection token of {@link McpSessionStreams}. */
export const MCP_SESSION_STREAMS = Symbol('MCP_SESSION_STREAMS');
