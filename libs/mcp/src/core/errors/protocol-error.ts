import type { JsonRpcErrorObject } from '../json-rpc/json-rpc.types.js';

/** A JSON-RPC protocol error turned into an error response; its message is for the client, so never internals. */
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
