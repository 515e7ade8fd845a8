/** Boot and log messages of the 2026-07-28 era, each naming the place and the fix. */
export const Rev20260728Messages = {
  randomRequestStateSecret: () =>
    'McpModule option "requestState.secret" is not set: requestState (2026-07-28 multi round-trip requests) is signed with a random per-process key. ' +
    'Set the same secret of 32+ characters on every instance when several instances serve one URL, or retries that reach another instance fail.',
  taskSupportWithoutJob: (site: string) =>
    `${site}: @McpTaskSupport() needs @McpTool({ job: true }) on the same method (only long-running tools run as tasks).`,
  taskSupportWithoutTool: (site: string) => `${site}: @McpTaskSupport() is only meaningful on an @McpTool() method.`,
  invalidParamHeader: (tool: string, problem: string) =>
    `Tool "${tool}": its inputSchema has an invalid x-mcp-header (${problem}); clients drop such tools. Fix the annotation or remove it.`,
  taskFailed: (taskId: string, tool: string) => `Task ${taskId} (${tool}) failed`,
  taskNotRecorded: (taskId: string) => `Task ${taskId} could not be recorded`,
} as const;
