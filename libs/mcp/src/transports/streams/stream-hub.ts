import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { McpSessionStreams } from '../../core/session-streams.interface.js';
import { MCP_METRICS, NOOP_MCP_METRICS, type McpMetrics } from '../../core/mcp-metrics.interface.js';
import { SseWriter } from '../http/sse-writer.js';
import { McpInstanceRouter, type McpRoute } from '../routing/mcp-instance.router.js';
import { LiveStream } from './live-stream.js';
import { SseEventStore } from './sse-event.store.js';

/**
 * The streams this instance holds: POST streams in progress, one standalone GET stream per session, and the
 * open connections (closed with a `retry:` hint at shutdown so clients resume elsewhere). While it holds a
 * session's GET stream, it takes that session's notifications sent from other instances. Features and eras see
 * it only as {@link McpSessionStreams} (token `MCP_SESSION_STREAMS`).
 */
@Injectable()
export class McpStreamHub implements McpSessionStreams, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpStreamHub');
  private readonly streams = new Map<string, LiveStream>();
  private readonly standalone = new Map<string, LiveStream>();
  /** Per session with a GET stream here, its route subscription (resolving to the function that ends it). */
  private readonly routes = new Map<string, Promise<() => Promise<void>>>();
  private readonly writers = new Set<SseWriter>();
  private readonly streamsPerTenant = new Map<string, number>();
  private readonly endHooks: Array<() => void> = [];

  constructor(
    private readonly events: SseEventStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly router: McpInstanceRouter,
    @Optional() @Inject(MCP_METRICS) private readonly metrics: McpMetrics = NOOP_MCP_METRICS,
  ) {}

  /** Opens a stream; `sessionId` makes it resumable. */
  open(sessionId: string | undefined): LiveStream {
    const stream = new LiveStream(newStreamId(), sessionId, sessionId ? this.events : undefined);
    this.streams.set(stream.id, stream);
    return stream;
  }

  /** Forgets a finished stream once its events are stored (replay then reads the store). */
  release(stream: LiveStream): void {
    void stream.flushed().then(() => {
      if (this.streams.get(stream.id) === stream) this.streams.delete(stream.id);
    });
  }

  find(streamId: string): LiveStream | undefined {
    return this.streams.get(streamId);
  }

  /** The session's GET stream, if one is open on this instance. */
  standaloneOf(sessionId: string): LiveStream | undefined {
    return this.standalone.get(sessionId);
  }

  setStandalone(sessionId: string, stream: LiveStream | undefined): void {
    if (stream) {
      this.standalone.set(sessionId, stream);
      this.holdRoute(sessionId);
    } else {
      this.standalone.delete(sessionId);
      this.releaseRoute(sessionId);
    }
  }

  /**
   * Sends a server notification on the session's GET stream, on whichever instance holds it. True when it was
   * written here or handed to the other instances; false when no stream can be reached (single instance: none
   * is open here).
   */
  notifySession(sessionId: string, message: JsonRpcMessage): boolean {
    if (this.notifyHere(sessionId, message)) return true;
    if (!this.router.spansInstances) return false;
    this.router
      .forward(sessionStreamRoute(sessionId), message)
      .catch((error: unknown) => this.logger.warn(`Notification for session ${sessionId} not forwarded: ${reasonOf(error)}`));
    return true;
  }

  /**
   * Sends on the session's GET stream only if this instance holds it. For announcements already broadcast to
   * every instance (each would otherwise forward its copy to the holder).
   */
  notifyHere(sessionId: string, message: JsonRpcMessage): boolean {
    const stream = this.standalone.get(sessionId);
    if (!stream) return false;
    stream.send(message);
    return true;
  }

  /** Runs `hook` once, at the start of shutdown, before the open streams end (see {@link onModuleDestroy}). */
  beforeStreamsEnd(hook: () => void): void {
    this.endHooks.push(hook);
  }

  /** True when `tenant` may open one more long-lived stream on this instance. */
  hasRoomFor(tenant: string): boolean {
    return (this.streamsPerTenant.get(tenant) ?? 0) < this.options.limits.maxStreamsPerTenant;
  }

  /**
   * Wraps a response as an SSE connection with keep-alives, counted against `tenant` until the socket closes;
   * then it is forgotten and `onClose` runs. A reader that leaves more than `streams.maxBufferedBytes` unread
   * is cut (the socket closes, so the same happens); `streamId` names the stream in the warning (a connection
   * without one, such as 2024-11-05 HTTP+SSE, gets a fresh id: session ids stay out of logs).
   */
  connect(response: import('express').Response, tenant: string, onClose: (writer: SseWriter) => void, streamId = newStreamId()): SseWriter {
    const maxBufferedBytes = this.options.streams.maxBufferedBytes;
    const writer = new SseWriter(response, {
      maxBufferedBytes,
      onCut: () =>
        this.logger.warn(
          `SSE stream ${streamId} cut: its reader left more than ${maxBufferedBytes} bytes unread (streams.maxBufferedBytes)`,
        ),
    });
    // Shutting down: the caller opens it in this tick (headers out), then it ends with the retry hint.
    if (this.draining) setImmediate(() => this.endWithRetry(writer));
    else this.writers.add(writer);
    this.streamsPerTenant.set(tenant, (this.streamsPerTenant.get(tenant) ?? 0) + 1);
    this.metrics.streamOpened();
    const keepAlive = setInterval(() => writer.comment('keepalive'), this.options.streams.keepAliveMs);
    keepAlive.unref();
    response.on('close', () => {
      clearInterval(keepAlive);
      this.writers.delete(writer);
      const left = (this.streamsPerTenant.get(tenant) ?? 1) - 1;
      if (left <= 0) this.streamsPerTenant.delete(tenant);
      else this.streamsPerTenant.set(tenant, left);
      this.metrics.streamClosed();
      onClose(writer);
    });
    return writer;
  }

  /** Takes the session's notifications from other instances while its GET stream is open here. */
  private holdRoute(sessionId: string): void {
    if (!this.router.spansInstances || this.routes.has(sessionId)) return;
    const held = this.router.hold(sessionStreamRoute(sessionId), (message) => this.notifyHere(sessionId, message as JsonRpcMessage));
    this.routes.set(
      sessionId,
      held.catch((error: unknown) => {
        // The stream still works for what this instance sends; only notifications from elsewhere are missed.
        this.logger.warn(`Session ${sessionId} cannot take notifications from other instances: ${reasonOf(error)}`);
        return async () => undefined;
      }),
    );
  }

  private releaseRoute(sessionId: string): void {
    const held = this.routes.get(sessionId);
    if (!held) return;
    this.routes.delete(sessionId);
    void held.then((release) => release()).catch(() => undefined);
  }

  /**
   * Shutdown starts: every open connection ends after a `retry:` hint, so clients reconnect (to another
   * instance) at once rather than after running jobs and calls have drained. From now on a new stream is ended
   * the same way right after it opens: a long-lived socket would hold the HTTP server's close open. The
   * `beforeStreamsEnd` hooks run first, while their streams can still take a final message.
   */
  onModuleDestroy(): void {
    for (const hook of this.endHooks.splice(0)) {
      try {
        hook();
      } catch (error) {
        // One failing hook must not keep the other streams open.
        this.logger.error(`A shutdown hook failed before the streams ended: ${reasonOf(error)}`);
      }
    }
    this.draining = true;
    this.endAll();
  }

  /** Again just before the HTTP server closes, for anything opened meanwhile. */
  beforeApplicationShutdown(): void {
    this.draining = true;
    this.endAll();
  }

  /** True once shutdown has started: callers that open streams asynchronously refuse new ones (503). */
  get isDraining(): boolean {
    return this.draining;
  }

  private draining = false;

  private endAll(): void {
    for (const writer of this.writers) this.endWithRetry(writer);
    this.writers.clear();
  }

  private endWithRetry(writer: SseWriter): void {
    writer.retry(this.options.streams.retryMs);
    writer.end();
  }
}

function newStreamId(): string {
  return randomBytes(9).toString('base64url');
}

function sessionStreamRoute(sessionId: string): McpRoute {
  return { kind: 'session-stream', sessionId };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
