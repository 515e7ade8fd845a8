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

/** Tracks `server`'s connections and makes its `close()` end those not serving a request (see {@link McpIdleConnectionsCloser}). */
export function endIdleConnectionsOnClose(server: Server): void {
  if (watched.has(server)) return;
  watched.add(server);
  // Requests in progress per open connection (several only with pipelining).
  const inProgress = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    inProgress.set(socket, 0);
    socket.once('close', () => inProgress.delete(socket));
  });
  server.on('request', (request: { socket: Socket }, response: { once(event: 'close', listener: () => void): unknown }) => {
    const socket = request.socket;
    if (!inProgress.has(socket)) return;
    inProgress.set(socket, (inProgress.get(socket) ?? 0) + 1);
    response.once('close', () => {
      if (!inProgress.has(socket)) return;
      const left = Math.max(0, (inProgress.get(socket) ?? 1) - 1);
      inProgress.set(socket, left);
      // The answer is written: end the connection after it rather than wait for the keep-alive timeout.
      if (closing && left === 0) socket.end();
    });
  });
  const close = server.close.bind(server);
  // Both adapters close the Node server through this method (Fastify's close() calls it too).
  server.close = ((callback?: (error?: Error) => void) => {
    closing = true;
    for (const [socket, requests] of inProgress) if (requests === 0) socket.destroy();
    return close(callback);
  }) as Server['close'];
}
