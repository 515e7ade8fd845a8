import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of `@McpTaskSupport()` (the 2026-07-28 tasks). */
export const TASK_ERRORS = bootErrors({
  taskSupportWithoutJob: {
    code: 'MCP_ERR_TASK_SUPPORT_WITHOUT_JOB',
    message: (site: string) =>
      `${site}: @McpTaskSupport() needs @McpTool({ job: true }) on the same method (only long-running tools run as tasks).`,
    fix: 'Add `job: true` to the tool, or remove `@McpTaskSupport()`.',
  },
  taskSupportWithoutTool: {
    code: 'MCP_ERR_TASK_SUPPORT_WITHOUT_TOOL',
    message: (site: string) => `${site}: @McpTaskSupport() is only meaningful on an @McpTool() method.`,
    fix: 'Put it on a tool method, or remove it.',
  },
});

/** Boot errors of a tool's 2026-07-28 parameter headers. */
export const PARAM_HEADER_ERRORS = bootErrors({
  invalidParamHeader: {
    code: 'MCP_ERR_TOOL_PARAM_HEADER_INVALID',
    message: (tool: string, problem: string) =>
      `Tool "${tool}": its inputSchema has an invalid x-mcp-header (${problem}); clients drop such tools. Fix the annotation or remove it.`,
    fix: 'Fix or remove the `x-mcp-header` annotation (2026-07-28 parameter headers).',
  },
});

/** Boot errors (codes in `docs/errors.md`) and log messages of the 2026-07-28 era, each naming the place and the fix. */
export const Rev20260728Messages = {
  ...TASK_ERRORS,
  ...PARAM_HEADER_ERRORS,
  randomRequestStateSecret: () =>
    'McpModule option "requestState.secret" is not set: requestState (2026-07-28 multi round-trip requests) is signed with a random per-process key. ' +
    'Set the same secret of 32+ characters on every instance when several instances serve one URL, or retries that reach another instance fail.',
  taskFailed: (taskId: string, tool: string) => `Task ${taskId} (${tool}) failed`,
  taskNotRecorded: (taskId: string) => `Task ${taskId} could not be recorded`,
} as const;
