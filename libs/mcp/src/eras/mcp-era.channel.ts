import type { McpChannel } from '../core/mcp-channel.interface.js';
import type { McpSessionRecord } from '../sessions/mcp-session.record.js';

/**
 * What every transport hands the era router with the bytes it framed, whatever era the message turns out to be:
 * the channel of core, and the session a stream-holding transport (HTTP+SSE) found for it.
 */
export interface McpEraChannel extends McpChannel {
  /** The session whose stream carries the answers (HTTP+SSE): its messages stay in the session's era. */
  readonly session?: McpSessionRecord;
}
