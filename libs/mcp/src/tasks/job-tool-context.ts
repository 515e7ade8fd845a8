import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import { McpToolError } from '../core/errors/mcp-tool.error.js';
import type { McpJobSubmission } from './engine/job.record.js';

/**
 * The context a job's handler gets: the caller's identity and tenant, progress that lands in the job record
 * (what polls and `tasks/get` report), and an AbortSignal fired by cancellation or the tool's timeout. There is
 * no client connection behind a job, so it cannot talk to the client.
 */
export function createJobToolContext(
  submission: McpJobSubmission,
  signal: AbortSignal,
  onProgress: (progress: number, total?: number, message?: string) => void,
): McpToolContext {
  const unreachable = async (): Promise<never> => {
    throw new McpToolError('CLIENT_UNREACHABLE', 'A background job cannot send requests to the client');
  };
  let last = Number.NEGATIVE_INFINITY;
  return {
    requestId: submission.jobId,
    toolName: submission.tool,
    protocolVersion: submission.protocolVersion,
    transport: 'http',
    principal: submission.principal,
    tenant: submission.tenant,
    signal,
    reportProgress(progress, total, message) {
      if (!(progress > last)) return;
      last = progress;
      onProgress(progress, total, message);
    },
    log: () => undefined,
    sample: unreachable,
    elicit: unreachable,
    listRoots: unreachable,
    closeSseStream: () => undefined,
  };
}
