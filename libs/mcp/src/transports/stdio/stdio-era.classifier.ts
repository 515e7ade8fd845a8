import type { EraClaim, McpEra } from '../../eras/era-router.js';

/**
 * How stdio reads the revision a message claims, for the era router: the message, and the era its connection is
 * pinned to (a stdio process serves one client, which picks the era with its first real message). There are no
 * headers to cross-check.
 */
export function classifyStdioMessage(message: unknown, pinned: McpEra | undefined): EraClaim {
  return { message, channelRevision: pinned, pinned: pinned !== undefined };
}
