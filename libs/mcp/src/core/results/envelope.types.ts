/** The three envelopes every tool answers with: `success`, `error`, `pending`. @publicApi */
export interface McpSuccessEnvelope<T = unknown> {
  status: 'success';
  data: T;
}

/** Machine-readable failure: agents decide from `retryable` (and `retry_after_ms`) whether to try again. @publicApi */
export interface McpErrorBody {
  code: string;
  message: string;
  retryable: boolean;
  /** Property paths of the offending arguments, for validation failures. */
  fields?: string[];
  retry_after_ms?: number;
}

/** @publicApi */
export interface McpErrorEnvelope {
  status: 'error';
  error: McpErrorBody;
}

/** Accepted but not finished: poll `poll_url` (HTTP only; over stdio there is none) or the `get_job_status` tool for the outcome. @publicApi */
export interface McpPendingEnvelope {
  status: 'pending';
  data: { job_id: string; poll_url?: string; estimated_seconds?: number; progress?: number; total?: number; message?: string };
}

/** @publicApi */
export type McpEnvelope<T = unknown> = McpSuccessEnvelope<T> | McpErrorEnvelope | McpPendingEnvelope;
