import { isRetryableByDefault } from './error-codes.js';
import type { McpErrorBody } from '../results/envelope.types.js';

/** Options of an {@link McpToolError}. @publicApi */
export interface McpToolErrorOptions {
  /** Defaults to the catalogue's flag for built-in codes, else `false`. */
  retryable?: boolean;
  fields?: string[];
  retryAfterMs?: number;
}

/**
 * Throw from a tool to answer with an error envelope (`isError: true`). Its message is meant for the model,
 * so it is sent as is; any other thrown error becomes a generic `INTERNAL_ERROR`.
 * @publicApi
 * @example throw new McpToolError('CITY_NOT_FOUND', `Unknown city "${city}"`);
 */
export class McpToolError extends Error {
  readonly retryable: boolean;
  readonly fields?: string[];
  readonly retryAfterMs?: number;

  constructor(
    readonly code: string,
    message: string,
    options: McpToolErrorOptions = {},
  ) {
    super(message);
    this.name = 'McpToolError';
    this.retryable = options.retryable ?? isRetryableByDefault(code);
    this.fields = options.fields;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** The `error` member of the envelope. */
  toErrorBody(): McpErrorBody {
    return errorBody(this.code, this.message, {
      retryable: this.retryable,
      fields: this.fields,
      retryAfterMs: this.retryAfterMs,
    });
  }
}

/** Builds an error body with only the members that are set, in a stable order. */
export function errorBody(code: string, message: string, options: McpToolErrorOptions = {}): McpErrorBody {
  const body: McpErrorBody = { code, message, retryable: options.retryable ?? isRetryableByDefault(code) };
  if (options.fields?.length) body.fields = options.fields;
  if (options.retryAfterMs !== undefined) body.retry_after_ms = options.retryAfterMs;
  return body;
}
