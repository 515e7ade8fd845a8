import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { McpSessionStreams } from '../../core/session-streams.interface.js';
import { MCP_METRICS, NOOP_MCP_METRICS, type McpMetrics } from '../../core/mcp-metrics.interface.js';
import { SseWriter } from '../http/sse-writer.js';
import { McpInstanceRouter, type McpRoute } from '../routing/mcp-instance.router.js';
import { McpSessionStreamClaims } from '../routing/session-stream.claims.js';
import { followRemoteStream, instanceOfStream, type FollowedEvent, type FollowRequest } from '../routing/remote-stream.follower.js';
import { McpInstanceLease } from '../../sessions/mcp-instance-lease.service.js';
import { MCP_STORE, type McpKeyValueStore } from '../../stores/key-value.store.js';
import { LiveStream } from './live-stream.js';
import { McpStreamSlots } from './stream-slots.js';
import { SseEventStore } from './sse-event.store.js';

/**
 * The streams this instance holds (POST streams, one GET stream per session, the open connections), seen by features
 * and eras as {@link McpSessionStreams}. Across instances: stream ids name the instance that opened them, a session's
 * GET stream is claimed in the store, and a stream resumed elsewhere while live here is published for it to follow.
 */
@Injectable()
export class McpStreamHub
  implements McpSessionStreams, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('McpStreamHub');
  private readonly streams = new Map<string, LiveStream>();
  private readonly standalone = new Map<string, LiveStream>();
  /** Per session with a GET stream here, across instances: its route subscription and the timer renewing its claim. */
  private readonly held = new Map<string, { route: Promise<() => Promise<void>>; renewal: NodeJS.Timeout }>();
  private readonly writers = new Set<SseWriter>();
  private readonly slots: McpStreamSlots;
  private readonly endHooks: Array<() => void> = [];
  private readonly standaloneListeners: Array<(sessionId: string, open: boolean) => void> = [];
  /** Sessions whose GET stream this instance is claiming in the store right now (a second GET meanwhile: 409). */
  private readonly claiming = new Set<string>();
  private readonly claims: McpSessionStreamClaims;
  private followRequests?: Promise<() => Promise<void>>;
  private draining = false;

  constructor(
    private readonly events: SseEventStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly router: McpInstanceRouter,
    @Optional() @Inject(MCP_METRICS) private readonly metrics: McpMetrics = NOOP_MCP_METRICS,
    private readonly lease: McpInstanceLease,
    @Inject(MCP_STORE) store: McpKeyValueStore,
  ) {
    this.claims = new McpSessionStreamClaims(store, lease, options.http.streams.keepAliveMs);
    this.slots = new McpStreamSlots(store, options);
  }

  /** Takes requests from other instances to follow a stream held here (one subscription per instance). */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.router.spansInstances) return;
    this.followRequests = this.router.hold({ kind: 'instance', instanceId: this.lease.id }, (message) => this.followHere(message));
    await this.followRequests;
  }

  /** Only now: streams that finish while shutdown waits for their calls are still followed to their end. */
  async onApplicationShutdown(): Promise<void> {
    await this.followRequests?.then((release) => release()).catch(() => undefined);
  }

  /** Opens a stream; `sessionId` makes it resumable. */
  open(sessionId: string | undefined): LiveStream {
    const holder = this.router.spansInstances ? this.lease.id : undefined; // one instance: nobody asks who holds it
    const stream = new LiveStream(newStreamId(holder), sessionId, sessionId ? this.events : undefined);
    this.streams.set(stream.id, stream);
    return stream;
  }

  /** Forgets a finished stream once its events are stored (replay reads them there), its end too (for other instances). */
  release(stream: LiveStream): void {
    if (this.router.spansInstances) stream.end();
    void stream.flushed().then(() => {
      if (this.streams.get(stream.id) === stream) this.streams.delete(stream.id);
    });
  }

  find(streamId: string): LiveStream | undefined {
    return this.streams.get(streamId);
  }

  /** A stream not held here: `ended` (or no known holder: replay only), `live` elsewhere, or `lost` with its instance. */
  async remoteStateOf(streamId: string, ended: boolean): Promise<'ended' | 'live' | 'lost'> {
    const holder = instanceOfStream(streamId);
    if (ended || !this.router.spansInstances || holder === undefined || holder === this.lease.id) return 'ended';
    return (await this.lease.isAlive(holder)) ? 'live' : 'lost';
  }

  /** Continues on `writer`, after the client's `afterId`, a stream live on another instance until it ends or dies there. */
  followRemote(sessionId: string, streamId: string, afterId: string, writer: SseWriter): void {
    const holder = instanceOfStream(streamId);
    if (holder === undefined) return writer.end();
    followRemoteStream({ sessionId, streamId, holder, afterId }, writer, { router: this.router, events: this.events, lease: this.lease });
  }

  /**
   * Claims the session's one GET stream, across instances: false when one is open (or being opened) here or on a
   * live instance; rejects while the store is down. A true claim is followed by `setStandalone` (undefined: let go).
   */
  async claimStandalone(sessionId: string): Promise<boolean> {
    if (this.standalone.has(sessionId) || this.claiming.has(sessionId)) return false;
    // Marked until `setStandalone`: another GET of the session meanwhile, on this instance, is refused too.
    this.claiming.add(sessionId);
    let claimed = false;
    try {
      claimed = !this.router.spansInstances || (await this.claims.claim(sessionId));
      return claimed;
    } finally {
      if (!claimed) this.claiming.delete(sessionId);
    }
  }

  /** The session's GET stream, if one is open on this instance. */
  standaloneOf(sessionId: string): LiveStream | undefined {
    return this.standalone.get(sessionId);
  }

  /** Records (or, with undefined, forgets) the session's GET stream here; also ends a claim taken for it. */
  setStandalone(sessionId: string, stream: LiveStream | undefined): void {
    this.claiming.delete(sessionId);
    if (stream) {
      this.standalone.set(sessionId, stream);
      this.holdAcrossInstances(sessionId);
      for (const listener of this.standaloneListeners) listener(sessionId, true);
    } else {
      if (this.standalone.delete(sessionId)) for (const listener of this.standaloneListeners) listener(sessionId, false);
      const held = this.held.get(sessionId);
      this.held.delete(sessionId);
      clearInterval(held?.renewal);
      // Also when none was open here: a claim taken for a connection that closed before it opened.
      if (this.router.spansInstances)
        this.claims
          .release(sessionId)
          .catch((error: unknown) => this.logger.warn(`GET stream claim of session ${sessionId} not released: ${reasonOf(error)}`));
      void held?.route.then((release) => release()).catch(() => undefined);
    }
  }

  /**
   * While the session's GET stream is open here: takes its notifications sent from other instances, and renews its
   * claim (a lease of three keep-alives) every interval; a claim that lapsed and was taken elsewhere ends the stream
   * here: two GET streams of one session would each carry its notifications.
   */
  private holdAcrossInstances(sessionId: string): void {
    if (!this.router.spansInstances || this.held.has(sessionId)) return;
    const route = this.router
      .hold(sessionStreamRoute(sessionId), (message) => this.notifyHere(sessionId, message as JsonRpcMessage))
      .catch((error: unknown) => {
        // The stream still works for what this instance sends; only notifications from elsewhere are missed.
        this.logger.warn(`Session ${sessionId} cannot take notifications from other instances: ${reasonOf(error)}`);
        return async () => undefined;
      });
    const renew = async () => {
      if (await this.claims.refresh(sessionId)) return;
      this.logger.warn(`GET stream of a session ended here: its claim lapsed and another instance holds the session's GET stream now`);
      this.standalone.get(sessionId)?.complete();
    };
    const renewal = setInterval(() => void renew().catch(() => undefined), this.claims.renewMs);
    renewal.unref();
    this.held.set(sessionId, { route, renewal });
  }

  /** Another instance resumes a stream held here: its events are published from now on (or its end, if over). */
  private followHere(message: unknown): void {
    const { follow } = (message ?? {}) as Partial<FollowRequest>;
    if (typeof follow?.sessionId !== 'string' || typeof follow.streamId !== 'string') return;
    const { sessionId, streamId } = follow;
    const publish = (event: FollowedEvent['event']) =>
      void this.router
        .forward({ kind: 'stream-events', sessionId, streamId }, { event } satisfies FollowedEvent)
        .catch((error: unknown) => this.logger.warn(`Events of stream ${streamId} not published: ${reasonOf(error)}`));
    const stream = this.streams.get(streamId);
    // Within the session that resumed it only.
    if (stream && stream.sessionId === sessionId) stream.follow(publish);
    else publish({ id: `${streamId}.0`, message: null, end: true });
  }

  notifySession(sessionId: string, message: JsonRpcMessage): boolean {
    if (this.notifyHere(sessionId, message)) return true;
    if (!this.router.spansInstances) return false;
    this.router
      .forward(sessionStreamRoute(sessionId), message)
      .catch((error: unknown) => this.logger.warn(`Notification for session ${sessionId} not forwarded: ${reasonOf(error)}`));
    return true;
  }

  notifyHere(sessionId: string, message: JsonRpcMessage): boolean {
    const stream = this.standalone.get(sessionId);
    if (!stream) return false;
    stream.send(message);
    return true;
  }

  beforeStreamsEnd(hook: () => void): void {
    this.endHooks.push(hook);
  }

  onStandaloneStream(listener: (sessionId: string, open: boolean) => void): void {
    this.standaloneListeners.push(listener);
  }

  /** Takes one of `tenant`'s `limits.maxStreamsPerTenant` places for the next stream; rejects while the store is down. */
  hasRoomFor(tenant: string): Promise<boolean> {
    return this.slots.reserve(tenant);
  }

  /**
   * Wraps a response as an SSE connection with keep-alives, counted against `tenant` until the socket closes (then
   * `onClose` runs). `streamId` names it in the cut warning; without one a fresh id does: session ids stay out of logs.
   */
  connect(
    response: import('node:http').ServerResponse,
    tenant: string,
    onClose: (writer: SseWriter) => void,
    streamId = newStreamId(),
  ): SseWriter {
    const maxBufferedBytes = this.options.http.streams.maxBufferedBytes;
    const writer = new SseWriter(response, {
      maxBufferedBytes,
      onCut: () =>
        this.logger.warn(
          `SSE stream ${streamId} cut: its reader left more than ${maxBufferedBytes} bytes unread (http.streams.maxBufferedBytes)`,
        ),
    });
    // Shutting down: the caller opens it in this tick (headers out), then it ends with the retry hint.
    if (this.draining) setImmediate(() => this.endWithRetry(writer));
    else this.writers.add(writer);
    const slot = this.slots.claim(tenant);
    this.metrics.streamOpened();
    const keepAlive = setInterval(() => {
      writer.comment('keepalive');
      slot.renew();
    }, this.options.http.streams.keepAliveMs);
    keepAlive.unref();
    response.on('close', () => {
      clearInterval(keepAlive);
      this.writers.delete(writer);
      slot.release();
      this.metrics.streamClosed();
      onClose(writer);
    });
    return writer;
  }

  /**
   * Shutdown starts: every connection ends after a `retry:` hint, so clients reconnect elsewhere at once rather than
   * after calls drain, and so does each new one (a long-lived socket would hold the HTTP server's close open).
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
    this.beforeApplicationShutdown();
  }

  /** Again just before the HTTP server closes, for anything opened meanwhile. */
  beforeApplicationShutdown(): void {
    this.draining = true;
    for (const writer of this.writers) this.endWithRetry(writer);
    this.writers.clear();
  }

  /** True once shutdown has started: callers that open streams asynchronously refuse new ones (503). */
  get isDraining(): boolean {
    return this.draining;
  }

  private endWithRetry(writer: SseWriter): void {
    writer.retry(this.options.http.streams.retryMs);
    writer.end();
  }
}

/** With an instance id, `<instance>_<random>`: any instance can tell from a `Last-Event-ID` which one holds it. */
function newStreamId(instanceId?: string): string {
  const random = randomBytes(9).toString('base64url');
  return instanceId === undefined ? random : `${instanceId}_${random}`;
}

const sessionStreamRoute = (sessionId: string): McpRoute => ({ kind: 'session-stream', sessionId });

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
