import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * Ends, when the HTTP server closes, the connections no request is served on: Node's `server.close()` waits for one
 * that never sent a request (a browser's preconnect) until its headers time out, which kept an idle server from
 * exiting on SIGTERM. A request in progress is left to finish (Nest closes the server after the shutdown grace).
 */
@Injectable()
export class McpIdleConnectionsCloser implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    // An application context (stdio) has no HTTP server.
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server && typeof server.on === 'function' && typeof server.close === 'function') endIdleConnectionsOnClose(server);
  }
}

/** The servers already watched: the MCP servers of one app share its HTTP server. */
const watched = new WeakSet<Server>();

/** Node's own record of the response a connection is writing (set while one is in progress, null between requests). */
type TrackedSocket = Socket & { _httpMessage?: { once(event: 'close', listener: () => void): unknown } | null };

/** Tracks `server`'s connections; nothing runs per request: `close()` reads Node's record of the response in progress. */
export function endIdleConnectionsOnClose(server: Server): void {
  if (watched.has(server)) return;
  watched.add(server);
  const open = new Set<TrackedSocket>();
  server.on('connection', (socket: TrackedSocket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const close = server.close.bind(server);
  // Both adapters close the Node server through this method (Fastify's close() calls it too).
  server.close = ((callback?: (error?: Error) => void) => {
    for (const socket of open) {
      const response = socket._httpMessage;
      // The answer in progress is written first: end the connection after it rather than wait for the keep-alive timeout.
      if (response) response.once('close', () => socket.end());
      else socket.destroy();
    }
    return close(callback);
  }) as Server['close'];
}
