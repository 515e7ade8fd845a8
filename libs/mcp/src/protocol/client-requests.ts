import { Injectable } from '@nestjs/common';
import { McpToolError } from '../results/mcp-tool.error.js';
import { notification } from './json-rpc.codec.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from './json-rpc.types.js';

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/** Default time a client gets to answer a server request (a human may be answering an elicitation). */
export const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 5 * 60_000;

/**
 * Server → client requests (sampling, elicitation, roots) issued during a call: each gets a unique id within
 * its scope (session or connection), goes out on the call's channel, and is settled when the client's response
 * comes back as a later message in the same scope.
 */
@Injectable()
export class McpClientRequests {
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;

  async request(input: {
    scope: string | undefined;
    send: ((message: JsonRpcMessage) => void) | undefined;
    method: string;
    params: Record<string, unknown>;
    signal: AbortSignal;
    timeoutMs?: number;
  }): Promise<Record<string, unknown>> {
    const { scope, send, method } = input;
    if (scope === undefined || !send) {
      throw new McpToolError('CLIENT_UNREACHABLE', `Cannot send ${method} to the client: it needs a session and a streaming response (Accept: text/event-stream)`);
    }
    const id: JsonRpcId = `srv-${++this.sequence}`;
    const key = `${scope}\u0000${id}`;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        input.signal.removeEventListener('abort', onAbort);
        this.pending.delete(key);
      };
      const giveUp = (error: McpToolError) => {
        finish();
        // The client should stop working on a request we no longer wait for.
        send(notification('notifications/cancelled', { requestId: id, reason: error.message }));
        reject(error);
      };
      const onAbort = () => giveUp(new McpToolError('CANCELLED', `${method} was abandoned: the call was cancelled or timed out`));
      const timeoutMs = input.timeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS;
      const timer = setTimeout(() => giveUp(new McpToolError('TIMEOUT', `The client did not answer ${method} within ${timeoutMs} ms`, { retryable: true })), timeoutMs);
      input.signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, {
        resolve: (result) => {
          finish();
          resolve(result);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      if (input.signal.aborted) return onAbort();
      send({ jsonrpc: '2.0', id, method, params: input.params });
    });
  }

  /** Settles the request a client response answers; false when nothing waits for it (ignored, as the spec allows). */
  settle(scope: string | undefined, response: JsonRpcResponse): boolean {
    if (scope === undefined || response.id === null) return false;
    const pending = this.pending.get(`${scope}\u0000${response.id}`);
    if (!pending) return false;
    if ('result' in response) pending.resolve(response.result ?? {});
    else pending.reject(new McpToolError('CLIENT_REQUEST_FAILED', `The client refused: ${response.error.message}`));
    return true;
  }
}
