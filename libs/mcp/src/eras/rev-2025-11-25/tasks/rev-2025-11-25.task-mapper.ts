import type { McpJobRecord, McpJobStatus } from '../../../jobs/job.record.js';

/** MCP task states for job states (spec 2025-11-25 tasks). */
const TASK_STATUS: Record<McpJobStatus, string> = { pending: 'working', success: 'completed', error: 'failed', cancelled: 'cancelled' };

/** A job as a 2025-11-25 `Task` (`ttl`, `pollInterval`; a tool error is `failed`). */
export function taskOf(record: McpJobRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.id,
    status: TASK_STATUS[record.status],
    createdAt: record.createdAt,
    lastUpdatedAt: record.updatedAt,
    ttl: record.ttlMs,
    pollInterval: Math.min(5_000, Math.max(250, (record.estimatedSeconds ?? 1) * 250)),
  };
  const envelope = record.result?.structuredContent as { error?: { message?: string } } | undefined;
  const message = record.status === 'error' ? envelope?.error?.message : record.message;
  if (message) task.statusMessage = message;
  return task;
}
