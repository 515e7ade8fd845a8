import type { JsonRpcErrorObject } from '../json-rpc/json-rpc.types.js';

/**
 * A JSON-RPC protocol error (unknown method or tool, bad params...). Thrown inside the dispatcher and turned
 * into an error response; its message is written for the client, so it must never carry internals.
 */
export class McpProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpProtocolError';
  }

  toJsonRpcError(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
