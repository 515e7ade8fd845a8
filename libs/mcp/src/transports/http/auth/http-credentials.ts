import type { IncomingMessage } from 'node:http';
import type { McpCredentials } from '../../../options/mcp-authenticator.interface.js';
import { clientAddressOf } from '../../../core/mcp-caller.js';

/** Credentials of an HTTP request: `X-API-Key`, or the token of `Authorization: Bearer`; and where it came from. */
export function credentialsOf(request: IncomingMessage, trustProxy = false): McpCredentials {
  const apiKey = request.headers['x-api-key'];
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  return {
    apiKey: typeof apiKey === 'string' ? apiKey : undefined,
    bearer,
    headers: request.headers,
    address: clientAddressOf(request, trustProxy),
  };
}
