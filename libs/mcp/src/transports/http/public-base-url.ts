import type { IncomingMessage } from 'node:http';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { headerOf } from './incoming-json.js';

/**
 * Scheme, host and global prefix of the URL the client used, for the absolute URLs the server hands out (the
 * 2024-11-05 `endpoint` event, the Server Card's remotes): the configured `publicUrl` as it is (it names the public
 * base, prefix included), else the request's scheme and host, with `X-Forwarded-Proto` / `X-Forwarded-Host` only when
 * `trustProxy` is set, since anyone can send them, followed by `globalPrefix` (`/api`, read from Nest at boot).
 */
export function publicBaseUrl(
  request: IncomingMessage,
  options: Pick<McpResolvedOptions, 'publicUrl' | 'trustProxy'>,
  globalPrefix: string,
): string {
  if (options.publicUrl) return options.publicUrl;
  const forwardedProto = options.trustProxy ? headerOf(request, 'x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const forwardedHost = options.trustProxy ? headerOf(request, 'x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const protocol = forwardedProto || (request.socket as { encrypted?: boolean }).encrypted ? forwardedProto || 'https' : 'http';
  const host = forwardedHost || headerOf(request, 'host') || `${request.socket.localAddress}:${request.socket.localPort}`;
  return `${protocol}://${host}${globalPrefix}`;
}
