import type { McpBootErrorCode, McpBootErrorDetail } from './boot-errors.js';

/**
 * Thrown at boot for misconfiguration: the message names the place and the fix, `code` is a stable `MCP_ERR_*`
 * code listed in `docs/errors.md` (shown as in Node's errors: `McpConfigurationError [MCP_ERR_…]: message`).
 * @publicApi
 * @example
 * if (error instanceof McpConfigurationError && error.code === 'MCP_ERR_TOOL_NAME_DUPLICATE') …
 */
export class McpConfigurationError extends Error {
  /** The catalogue code; `undefined` when the error was built from a bare message (an app's own check). */
  readonly code: McpBootErrorCode | undefined;

  constructor(detail: McpBootErrorDetail | string) {
    const { code, message } = typeof detail === 'string' ? { code: undefined, message: detail } : detail;
    super(message);
    this.code = code;
    this.name = code === undefined ? 'McpConfigurationError' : `McpConfigurationError [${code}]`;
    // V8 writes the stack's first line when it is first read: read it while the name carries the code.
    void this.stack;
    this.name = 'McpConfigurationError';
  }

  override toString(): string {
    return this.code === undefined ? super.toString() : `${this.name} [${this.code}]: ${this.message}`;
  }
}
