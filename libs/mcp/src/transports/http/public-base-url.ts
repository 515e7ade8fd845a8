import type { IncomingMessage } from 'node:http';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { headerOf } from './incoming-json.js';

/** `host[:port]`: a DNS name or IPv4 address (labels of letters, digits, `-`, `_`), or a bracketed IPv6 address. */
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;
const SCHEME = /^https?$/i;

/** The 400's text when {@link publicBaseUrl} refuses the request's host or scheme. */
export const BAD_HOST = 'Bad Request: Host, X-Forwarded-Host or X-Forwarded-Proto is not a valid host[:port] or http(s) scheme';

/**
 * The base of the absolute URLs handed out (the legacy HTTP+SSE `endpoint` event, the Server Card): `http.publicUrl`, else
 * the request's scheme and host (`X-Forwarded-*` only with `http.trustProxy`: anyone can send them) and `globalPrefix`.
 * Undefined for a host or scheme that is not plain: a forged `Host: evil.example/x?` must not reach the client.
 */
export function publicBaseUrl(
  request: IncomingMessage,
  options: Pick<McpResolvedOptions['http'], 'publicUrl' | 'trustProxy'>,
  globalPrefix: string,
): string | undefined {
  if (options.publicUrl) return options.publicUrl;
  const forwardedProto = options.trustProxy ? headerOf(request, 'x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const forwardedHost = options.trustProxy ? headerOf(request, 'x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  if (forwardedProto && !SCHEME.test(forwardedProto)) return undefined;
  const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = forwardedProto ? forwardedProto.toLowerCase() : encrypted ? 'https' : 'http';
  const host = forwardedHost || headerOf(request, 'host') || socketHost(request);
  if (!isHost(host)) return undefined;
  return `${protocol}://${host}${globalPrefix}`;
}

/** The local address the request reached, for a request without `Host` (HTTP/1.0); IPv6 in brackets. */
function socketHost(request: IncomingMessage): string {
  const address = request.socket.localAddress ?? '';
  return `${address.includes(':') ? `[${address}]` : address}:${request.socket.localPort}`;
}

function isHost(value: string): boolean {
  const match = HOST.exec(value);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}
