import type { JsonRpcMessage } from './json-rpc/json-rpc.types.js';

/**
 * What features and eras need from the streams the transports hold open for sessions: a way to send a server
 * notification to a session, and a say in the shutdown order. The transports' stream hub provides it (bound in
 * `mcp.module.ts`), so code above the transports reaches a session's stream without knowing HTTP or SSE.
 */
export interface McpSessionStreams {
  /** Sends on the session's GET stream, on whichever instance holds it; false when no stream can be reached. */
  notifySession(sessionId: string, message: JsonRpcMessage): boolean;
  /** Sends on the session's GET stream only if held here: for announcements already broadcast to every instance. */
  notifyHere(sessionId: string, message: JsonRpcMessage): boolean;
  /** Runs `hook` once at shutdown, just before every open stream ends: the last chance to write a final message on it. */
  beforeStreamsEnd(hook: () => void): void;
  /** Calls `listener` when this instance starts (`open`) or stops holding a session's GET stream, for state that follows it. */
  onStandaloneStream(listener: (sessionId: string, open: boolean) => void): void;
}

/** Injection token of {@link McpSessionStreams}. */
export const MCP_SESSION_STREAMS = Symbol('MCP_SESSION_STREAMS');
