import { SetMetadata } from '@nestjs/common';

/** Metadata key of `@McpTaskSupport()`. */
export const MCP_TASK_SUPPORT_METADATA = 'mcp:task-support';

/**
 * How a long-running tool (`@McpTool({ job: true })`) behaves as a task of the 2026-07-28 tasks extension
 * (`io.modelcontextprotocol/tasks`). Without this decorator a job tool runs as a task for requests that declare
 * the extension, creates it at once, and asks for input through `tasks/update`.
 * @publicApi
 */
export interface McpTaskSupportOptions {
  /**
   * The tool can only run as a task: a 2026-07-28 request that does not declare the extension is refused with
   * -32021 naming it. (Older revisions still get the `pending` job envelope.)
   */
  required?: boolean;
  /**
   * The tool gathers its input before it starts working: input it asks for before its first progress report
   * (and within its first second) is collected synchronously with `input_required` rounds, and the task is
   * created only then, so the client sees the questions before any task exists. Each round re-runs the handler
   * from the start (make what precedes the questions safe to repeat). Later input goes through `tasks/update`.
   */
  inputFirst?: boolean;
}

/**
 * Declares how a job tool runs as a task of the 2026-07-28 tasks extension.
 * @publicApi
 * @example
 * @McpTool({ description: 'Deletes a file after confirmation', job: true })
 * @McpTaskSupport({ required: true, inputFirst: true })
 * async deleteFile(@McpArgs() args: DeleteFileDto, @McpContext() context: McpToolContext) { ... }
 */
export const McpTaskSupport = (options: McpTaskSupportOptions = {}): MethodDecorator =>
  SetMetadata(MCP_TASK_SUPPORT_METADATA, { ...options });
