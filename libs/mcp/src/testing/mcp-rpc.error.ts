/**
 * A JSON-RPC error answer (unknown tool, bad params, a missing resource...) seen by `McpTestClient`: tool
 * failures are envelopes in `callTool(...).envelope`, these are protocol errors.
 * @publicApi
 */
export class McpRpcError extends Error {
  /** The JSON-RPC error code (-32602 invalid params, -32002 resource not found, ...). */
  readonly code: number;
  /** The error's `data`, when the server sent one. */
  readonly data?: unknown;

  constructor(
    /** The method that was refused. */
    readonly method: string,
    error: { code: number; message: string; data?: unknown },
  ) {
    super(`${method}: ${error.message} (JSON-RPC ${error.code})`);
    this.name = 'McpRpcError';
    this.code = error.code;
    if (error.data !== undefined) this.data = error.data;
  }
}
