import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../interfaces/mcp-module-options.interface.js';
import type { JsonRpcMessage } from '../../protocol/json-rpc.types.js';
import { SseWriter } from '../http/sse-writer.js';
import { LiveStream } from './live-stream.js';
import { SseEventStore } from './sse-event.store.js';

/**
 * The streams this instance holds: POST streams in progress, one standalone GET stream per session, and the
 * open connections (closed with a `retry:` hint at shutdown so clients resume elsewhere).
 */
@Injectable()
export class McpStreamHub implements BeforeApplicationShutdown {
  private readonly streams = new Map<string, LiveStream>();
  private readonly standalone = new Map<string, LiveStream>();
  private readonly writers = new Set<SseWriter>();
  private readonly streamsPerTenant = new Map<string, number>();

  constructor(
    private readonly events: SseEventStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /** Opens a stream; `sessionId` makes it resumable. */
  open(sessionId: string | undefined): LiveStream {
    const stream = new LiveStream(randomBytes(9).toString('base64url'), sessionId, sessionId ? this.events : undefined);
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
    if (stream) this.standalone.set(sessionId, stream);
    else this.standalone.delete(sessionId);
  }

  /** Sends a server notification on the session's GET stream; false when none is open here. */
  notifySession(sessionId: string, message: JsonRpcMessage): boolean {
    const stream = this.standalone.get(sessionId);
    if (!stream) return false;
    stream.send(message);
    return true;
  }

  /** True when `tenant` may open one more long-lived stream on this instance. */
  hasRoomFor(tenant: string): boolean {
    return (this.streamsPerTenant.get(tenant) ?? 0) < this.options.limits.maxStreamsPerTenant;
  }

  /**
   * Wraps a response as an SSE connection with keep-alives, counted against `tenant` until the socket closes;
   * then it is forgotten and `onClose` runs.
   */
  connect(response: import('express').Response, tenant: string, onClose: (writer: SseWriter) => void): SseWriter {
    const writer = new SseWriter(response);
    this.writers.add(writer);
    this.streamsPerTenant.set(tenant, (this.streamsPerTenant.get(tenant) ?? 0) + 1);
    const keepAlive = setInterval(() => writer.comment('keepalive'), this.options.streams.keepAliveMs);
    keepAlive.unref();
    response.on('close', () => {
      clearInterval(keepAlive);
      this.writers.delete(writer);
      const left = (this.streamsPerTenant.get(tenant) ?? 1) - 1;
      if (left <= 0) this.streamsPerTenant.delete(tenant);
      else this.streamsPerTenant.set(tenant, left);
      onClose(writer);
    });
    return writer;
  }

  /**
   * Ends every open connection after a `retry:` hint, so clients reconnect (to another instance). Before the
   * HTTP server closes: it would otherwise wait for these long-lived sockets.
   */
  beforeApplicationShutdown(): void {
    for (const writer of this.writers) {
      writer.retry(this.options.streams.retryMs);
      writer.end();
    }
    this.writers.clear();
  }
}
