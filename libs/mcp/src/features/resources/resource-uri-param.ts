import type { JsonRpcParams } from '../../core/json-rpc/json-rpc.types.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { CLIENT_URI_MAX_CHARACTERS, clientText } from '../../core/client-text.js';

/** The `uri` param of a resources method; missing, empty or not a string is -32602. */
export function uriParam(params: JsonRpcParams, method: string): string {
  const { uri } = params;
  if (typeof uri !== 'string' || uri === '')
    throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: ${method} needs a uri string`);
  return uri;
}

/** The -32002 error of the spec, with the URI as `data` (as in its example), cut to a bounded length. */
export function resourceNotFound(uri: string): McpProtocolError {
  return new McpProtocolError(JsonRpcErrorCode.RESOURCE_NOT_FOUND, 'Resource not found', {
    uri: clientText(uri, CLIENT_URI_MAX_CHARACTERS),
  });
}
