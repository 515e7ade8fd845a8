import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors (codes in `docs/errors.md`) and log messages of the 2026-07-28 era, each naming the place and the fix. */
export const Rev20260728Messages = {
  ...bootErrors({
    taskSupportWithoutJob: {
      code: 'MCP_ERR_TASK_SUPPORT_WITHOUT_JOB',
      message: (site: string) =>
        `${site}: @McpTaskSupport() needs @McpTool({ job: true }) on the same method (only long-running tools run as tasks).`,
    },
    taskSupportWithoutTool: {
      code: 'MCP_ERR_TASK_SUPPORT_WITHOUT_TOOL',
      message: (site: string) => `${site}: @McpTaskSupport() is only meaningful on an @McpTool() method.`,
    },
    invalidParamHeader: {
      code: 'MCP_ERR_TOOL_PARAM_HEADER_INVALID',
      message: (tool: string, problem: string) =>
        `Tool "${tool}": its inputSchema has an invalid x-mcp-header (${problem}); clients drop such tools. Fix the annotation or remove it.`,
    },
  }),
  randomRequestStateSecret: () =>
    'McpModule option "requestState.secret" is not set: requestState (2026-07-28 multi round-trip requests) is signed with a random per-process key. ' +
    'Set the same secret of 32+ characters on every instance when several instances serve one URL, or retries that reach another instance fail.',
  taskFailed: (taskId: string, tool: string) => `Task ${taskId} (${tool}) failed`,
  taskNotRecorded: (taskId: string) => `Task ${taskId} could not be recorded`,
} as const;
