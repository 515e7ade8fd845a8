import type { McpJobRecord } from '../../../jobs/job.record.js';
import type { McpTaskState } from './task-state.store.js';

/** The `Task` fields of a job in the 2026-07-28 tasks extension (SEP-2663 names: `ttlMs`, `pollIntervalMs`, integers). */
export function taskOf(record: McpJobRecord, state: McpTaskState): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.id,
    status: statusOf(record, state),
    createdAt: record.createdAt,
    lastUpdatedAt: record.updatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: Math.round(Math.min(5_000, Math.max(250, (record.estimatedSeconds ?? 1) * 250))),
  };
  if (record.message) task.statusMessage = record.message;
  return task;
}

function statusOf(record: McpJobRecord, state: McpTaskState): string {
  switch (record.status) {
    case 'pending':
      return Object.keys(state.inputRequests).length > 0 ? 'input_required' : 'working';
    case 'cancelled':
      return 'cancelled';
    case 'error':
      // A tool error is a completed task whose result says isError; a crash is a failed task.
      return state.failure ? 'failed' : 'completed';
    case 'success':
      return 'completed';
  }
}

/** The flat `CreateTaskResult` (no nested `task`, no `requestState`). */
export function createTaskResult(record: McpJobRecord): Record<string, unknown> {
  return { resultType: 'task', ...taskOf(record, { inputRequests: {}, answers: {} }) };
}

/** Whether a `tools/call` result is a `CreateTaskResult` (a replayed one included). */
export function isCreateTaskResult(result: object): boolean {
  return (result as { resultType?: unknown }).resultType === 'task';
}
