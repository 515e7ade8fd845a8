import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * Ends, when the HTTP server closes, the connections no request is being served on. Node's `server.close()` ends
 * idle keep-alive connections but waits for one that never sent a request (a browser's preconnect, a client that
 * connected and waits) until its headers time out, which kept an idle server from exiting on SIGTERM (on both
 * adapters). A connection with a request in progress is left to finish, then ended: a busy server still drains.
 * Nest closes the HTTP server after every `beforeApplicationShutdown` hook, so the calls in flight have had their
 * grace (`shutdown.graceMs`) by then.
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

/**
 * Tracks `server`'s connections and makes its `close()` end those not serving a request (see {@link McpIdleConnectionsCloser}).
 * Nothing runs per request: whether a connection is serving one is read at close time from Node's own record of
 * the response in progress (a listener per request cost every request a closure and two listener operations).
 */
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
