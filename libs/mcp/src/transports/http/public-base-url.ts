import type { Request } from 'express';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { headerOf } from './incoming-json.js';

/**
 * Scheme, host and any global prefix of the URL the client used, for the absolute URLs the server hands out (the
 * 2024-11-05 `endpoint` event, the Server Card's remotes): the configured `publicUrl`, else the request, with
 * `X-Forwarded-Proto` / `X-Forwarded-Host` only when `trustProxy` is set, since anyone can send them.
 * `routePath` is the route the request matched (`/sse`, `/.well-known/mcp/server-card.json`): what precedes it in
 * the request's path is the app's global prefix.
 */
export function publicBaseUrl(request: Request, options: Pick<McpResolvedOptions, 'publicUrl' | 'trustProxy'>, routePath: string): string {
  if (options.publicUrl) return options.publicUrl;
  const forwardedProto = options.trustProxy ? headerOf(request, 'x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const forwardedHost = options.trustProxy ? headerOf(request, 'x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const protocol = forwardedProto || (request.socket as { encrypted?: boolean }).encrypted ? forwardedProto || 'https' : 'http';
  const host = forwardedHost || headerOf(request, 'host') || `${request.socket.localAddress}:${request.socket.localPort}`;
  const path = new URL(request.originalUrl, 'http://x').pathname;
  const prefix = path.endsWith(routePath) ? path.slice(0, path.length - routePath.length) : '';
  return `${protocol}://${host}${prefix}`;
}
