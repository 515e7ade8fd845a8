import type { EraClaim, McpEra } from '../../eras/era-claim.js';

/** A stdio message's claim for the era router: the message and the era its one client picked first; no headers. */
export function classifyStdioMessage(message: unknown, pinned: McpEra | undefined): EraClaim {
  return { message, channelRevision: pinned, pinned: pinned !== undefined };
}
