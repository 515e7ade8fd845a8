import { JsonRpcErrorCode } from './json-rpc-error-codes.js';
import type {
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
} from './json-rpc.types.js';
import { isPlainObject } from '../plain-object.js';

/** What one incoming JSON value turned out to be. `invalid` keeps the id when one could be read. */
export type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Classifies one JSON value (not an array: batches are the transport's concern) per JSON-RPC 2.0. */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (!isPlainObject(value)) return { kind: 'invalid', id: null, reason: 'A JSON-RPC message must be an object' };
  const id = isId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method.length === 0) {
      return { kind: 'invalid', id, reason: 'method must be a non-empty string' };
    }
    if (value.params !== undefined && !isPlainObject(value.params)) {
      return { kind: 'invalid', id, reason: 'params must be an object' };
    }
    const params = value.params as JsonRpcParams | undefined;
    if (!('id' in value)) return { kind: 'notification', message: { jsonrpc: '2.0', method: value.method, params } };
    // A request id may be a string or a number, never null (MCP narrows JSON-RPC here).
    if (!isId(value.id)) return { kind: 'invalid', id: null, reason: 'id must be a string or a number' };
    return { kind: 'request', message: { jsonrpc: '2.0', id: value.id, method: value.method, params } };
  }
  if (isId(value.id) && ('result' in value || 'error' in value)) {
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  return { kind: 'invalid', id, reason: 'Not a JSON-RPC request, notification or response' };
}

/** The id of a message, or null where none can be read. */
export function idOf(message: unknown): JsonRpcId | null {
  const id = isPlainObject(message) ? message.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Builds a success response. */
export function successResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcSuccessResponse {
  return { jsonrpc: '2.0', id, result };
}

/** Builds an error response; `id` is null when the request's id could not be read. */
export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error };
}

/** The -32700 response for an unparsable body or line. */
export function parseErrorResponse(): JsonRpcErrorResponse {
  return errorResponse(null, { code: JsonRpcErrorCode.PARSE_ERROR, message: 'Parse error: the body is not valid JSON' });
}

/** Builds a notification. */
export function notification(method: string, params?: JsonRpcParams): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}
