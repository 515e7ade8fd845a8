import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { McpToolError } from './errors/mcp-tool.error.js';
import { MCP_BUS, type McpMessageBus } from './message-bus.interface.js';
import { notification } from './json-rpc/json-rpc.codec.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from './json-rpc/json-rpc.types.js';

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/** Default time a client gets to answer a server request (a human may be answering an elicitation). */
export const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 5 * 60_000;

/**
 * Server → client requests issued during a call: a unique id per scope (session or connection), settled by the
 * client's response in that scope. A response POSTed to another instance is forwarded over the bus to the one
 * waiting (ids carry its tag).
 */
@Injectable()
export class McpClientRequests {
  private readonly logger = new Logger('McpClientRequests');
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;
  /** Makes ids unique across instances, which share sessions. */
  private readonly tag = randomBytes(6).toString('base64url');

  constructor(@Inject(MCP_BUS) private readonly bus: McpMessageBus) {}

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
      throw new McpToolError(
        'CLIENT_UNREACHABLE',
        `Cannot send ${method} to the client: it needs a session and a streaming response (Accept: text/event-stream)`,
      );
    }
    const id: JsonRpcId = `srv-${this.tag}-${++this.sequence}`;
    const key = `${scope}\u0000${id}`;
    // Listening before the request goes out: the response cannot arrive earlier.
    const stopListening = await this.listen(scope, id);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        input.signal.removeEventListener('abort', onAbort);
        this.pending.delete(key);
        stopListening();
      };
      const giveUp = (error: McpToolError) => {
        finish();
        // The client should stop working on a request we no longer wait for.
        send(notification('notifications/cancelled', { requestId: id, reason: error.message }));
        reject(error);
      };
      const onAbort = () => giveUp(new McpToolError('CANCELLED', `${method} was abandoned: the call was cancelled or timed out`));
      const timeoutMs = input.timeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS;
      const timer = setTimeout(
        () => giveUp(new McpToolError('TIMEOUT', `The client did not answer ${method} within ${timeoutMs} ms`, { retryable: true })),
        timeoutMs,
      );
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

  /** Settles the request a response answers, else forwards it to the instance waiting; false when ignored (unknown ids). */
  settle(scope: string | undefined, response: JsonRpcResponse): boolean {
    if (this.settleHere(scope, response)) return true;
    if (scope === undefined || typeof response.id !== 'string' || !response.id.startsWith('srv-') || !this.bus.crossesInstances)
      return false;
    this.bus.publish(responseChannel(scope, response.id), response).catch((error: unknown) => {
      this.logger.warn(`Client response ${response.id} not forwarded: ${error instanceof Error ? error.message : String(error)}`);
    });
    return true;
  }

  private settleHere(scope: string | undefined, response: JsonRpcResponse): boolean {
    if (scope === undefined || response.id === null) return false;
    const pending = this.pending.get(`${scope}\u0000${response.id}`);
    if (!pending) return false;
    if ('result' in response) pending.resolve(response.result ?? {});
    else pending.reject(new McpToolError('CLIENT_REQUEST_FAILED', `The client refused: ${response.error.message}`));
    return true;
  }

  /** Subscribes to responses forwarded for one request; a bus that cannot subscribe only costs the cross-instance path. */
  private async listen(scope: string, id: string): Promise<() => void> {
    if (!this.bus.crossesInstances) return () => undefined;
    try {
      const unsubscribe = await this.bus.subscribe(responseChannel(scope, id), (message) =>
        this.settleHere(scope, message as JsonRpcResponse),
      );
      return () => void unsubscribe().catch(() => undefined);
    } catch (error) {
      this.logger.warn(`Responses to ${id} from other instances will be missed: ${error instanceof Error ? error.message : String(error)}`);
      return () => undefined;
    }
  }
}

function responseChannel(scope: string, id: string): string {
  return `client-response:${scope}:${id}`;
}
