import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../../core/session-streams.interface.js';
import { McpStoreUnavailableError } from '../../core/errors/store-unavailable.error.js';
import { MCP_STORE, type McpKeyValueStore } from '../../stores/key-value.store.js';
import { storeKey } from '../../stores/store-key.js';
import { McpSessionService } from '../../sessions/mcp-session.service.js';
import { MAX_SUBSCRIPTIONS_PER_SUBSCRIBER, roomFor } from './resource-subscription.limits.js';

/** Bus channel on which a change to a session's stored subscriptions reaches the instance holding its GET stream. */
const SUBSCRIPTIONS_CHANGED_CHANNEL = 'resources:subscriptions';

/**
 * Compare-and-set rounds of one write. Another busy instance can win a dozen in a row on a loaded machine; with the
 * backoff below, 24 rounds wait at most about 1.8 s before answering a retryable UNAVAILABLE.
 */
const MAX_WRITE_ATTEMPTS = 24;
const MAX_BACKOFF_MS = 100;

/**
 * A session's subscriptions as the store keeps them. `version` grows by one per write (a new record starts at the
 * clock's millisecond, above any record the key held before), so an instance that sees a change announced
 * out of order, or misses one, knows to read the record again.
 */
export interface StoredSubscriptions {
  version: number;
  uris: string[];
}

/** What the bus carries per write: the URI that came or went, and the versions before and after. */
interface SubscriptionsChanged {
  sessionId: string;
  uri?: string;
  watching?: boolean;
  previous?: number;
  version?: number;
  /** The session ended: its record is gone. */
  ended?: boolean;
}

/** What this instance keeps for a session whose GET stream it holds. */
interface Watched {
  version: number;
  uris: Set<string>;
  loading: boolean;
  /** A change arrived during the read: read again once it finishes, the read may predate the change. */
  stale: boolean;
  /** Resources changed while the record was being read (URI → notification), sent once it is known whether they are watched. */
  missed: Map<string, JsonRpcMessage>;
}

/** Store key of a session's subscriptions: one key per session, so every operation touches one Redis Cluster slot. */
export function subscriptionsKey(sessionId: string): string {
  return storeKey('resource-subscriptions', sessionId);
}

/**
 * Streamable HTTP sessions' resource subscriptions with the `redis` option: kept in the shared store (one record
 * per session, at most {@link MAX_SUBSCRIPTIONS_PER_SUBSCRIBER} URIs, living `sessions.idleTtlMs` past its last
 * write or refresh, deleted when the session ends), so they outlive the instance that received `resources/subscribe`.
 *
 * Delivery happens at the instance holding the session's GET stream: it reads the record when the stream opens,
 * learns later changes over the bus, keeps the record alive while the stream is open, and sends each change it hears
 * of on that stream, once. Memory here: the subscriptions of the GET streams this instance holds.
 */
@Injectable()
export class McpStoredResourceSubscriptions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpStoredResourceSubscriptions');
  private readonly watched = new Map<string, Watched>();
  private readonly byUri = new Map<string, Set<string>>();
  /** Sessions whose record is being read for their new GET stream: a change meanwhile is held for them. */
  private readonly loading = new Set<string>();
  /** Per session with a write in progress here, the end of the last one queued (see {@link write}). */
  private readonly writing = new Map<string, Promise<void>>();
  /** Set by the registry when a resource is removed at runtime: URIs it rejects are neither loaded nor kept. */
  private stillServed?: (uri: string) => boolean;
  private stopListening?: () => Promise<void>;
  private refreshTimer?: NodeJS.Timeout;

  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_SESSION_STREAMS) private readonly streams: McpSessionStreams,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    sessions: McpSessionService,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
  ) {
    if (!this.enabled) return;
    streams.onStandaloneStream((sessionId, open) => (open ? this.watch(sessionId) : this.unwatch(sessionId)));
    sessions.onEnd((sessionId) => void this.endSession(sessionId));
  }

  /** With several instances only: alone, a session's subscriptions stay in the memory of its one instance. */
  get enabled(): boolean {
    return this.bus?.crossesInstances === true;
  }

  /** The session whose stored subscriptions `context` stands for: Streamable HTTP with a session, with `redis`. */
  sessionOf(context: McpRequestContext): string | undefined {
    return this.enabled && context.transport === 'http' ? context.sessionId : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    this.stopListening = await this.bus!.subscribe(SUBSCRIPTIONS_CHANGED_CHANNEL, (message) => this.heard(message));
    // While a GET stream is open here, its session's record must not expire: renewed at half its TTL.
    const ttl = this.options.sessions.idleTtlMs;
    this.refreshTimer = setInterval(() => this.refreshWatched(), Math.max(1, Math.floor(ttl / 2)));
    this.refreshTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.refreshTimer);
    await this.stopListening?.().catch(() => undefined);
  }

  /**
   * Adds `uri` to the session's record (re-subscribing refreshes it); false when the session already watches the
   * maximum. Rejects with `McpStoreUnavailableError` while the store or bus cannot be reached.
   */
  async subscribe(sessionId: string, uri: string): Promise<boolean> {
    return this.write(sessionId, uri, true);
  }

  /** Removes `uri` from the session's record, wherever it was subscribed (nothing to do when it was not there). */
  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    await this.write(sessionId, uri, false);
  }

  /** Sends `message` on the GET streams held here of the sessions watching `uri`; returns how many. */
  deliver(uri: string, message: JsonRpcMessage): number {
    let reached = 0;
    const reachedSessions = this.byUri.get(uri);
    for (const sessionId of reachedSessions ?? []) if (this.streams.notifyHere(sessionId, message)) reached++;
    for (const sessionId of this.loading) {
      const missed = this.watched.get(sessionId)?.missed;
      // Bounded as a record is: one notification per URI, the latest.
      if (missed && !reachedSessions?.has(sessionId) && (missed.has(uri) || missed.size < MAX_SUBSCRIPTIONS_PER_SUBSCRIBER))
        missed.set(uri, message);
    }
    return reached;
  }

  /**
   * Forgets here every subscription to a URI `stillServed` rejects (a resource removed at runtime), and skips such
   * URIs in records read or written from now on; returns how many URIs were dropped here.
   */
  dropUnserved(stillServed: (uri: string) => boolean): number {
    this.stillServed = stillServed;
    let dropped = 0;
    for (const [uri, sessionIds] of [...this.byUri]) {
      if (stillServed(uri)) continue;
      for (const sessionId of sessionIds) this.watched.get(sessionId)?.uris.delete(uri);
      this.byUri.delete(uri);
      dropped++;
    }
    return dropped;
  }

  /** URIs this instance delivers to for a session (for tests and diagnostics). */
  urisHeldFor(sessionId: string): readonly string[] {
    return [...(this.watched.get(sessionId)?.uris ?? [])];
  }

  /**
   * One write at a time per session on this instance, so only other instances' writes race its compare-and-set
   * (a client subscribing to 24 URIs at once lost 8 races in a row on 1 in 6 of them, answered UNAVAILABLE).
   * Memory: one promise per session with a write in progress here.
   */
  private write(sessionId: string, uri: string, watching: boolean): Promise<boolean> {
    const write = (this.writing.get(sessionId) ?? Promise.resolve()).then(() => this.writeNow(sessionId, uri, watching));
    const settled = write.then(() => undefined).catch(() => undefined);
    this.writing.set(sessionId, settled);
    void settled.then(() => {
      if (this.writing.get(sessionId) === settled) this.writing.delete(sessionId);
    });
    return write;
  }

  /** One compare-and-set loop on the session's record; two store calls unless another instance's write races it. */
  private async writeNow(sessionId: string, uri: string, watching: boolean): Promise<boolean> {
    const key = subscriptionsKey(sessionId);
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      // Lost a race: random milliseconds, doubling after each loss up to a cap, so racing instances spread apart.
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt)));
      const held = await this.store.get<StoredSubscriptions>(key);
      const uris = (held?.uris ?? []).filter((each) => each !== uri && this.served(each));
      if (!watching && uris.length === (held?.uris.length ?? 0)) return true; // not subscribed: nothing to end
      if (watching && !roomFor(uris, uri)) return false;
      if (watching) uris.push(uri);
      const next: StoredSubscriptions = { version: held ? held.version + 1 : Date.now(), uris };
      if (!(await this.store.compareAndSet(key, held, next, this.options.sessions.idleTtlMs))) continue;
      // This instance may hold the GET stream: it knows the whole record, and a change right after the answer finds it.
      const watchedHere = this.watched.get(sessionId);
      if (watchedHere) this.adopt(sessionId, watchedHere, next);
      // Awaited: the answer goes out once the instance holding the GET stream can know of the change.
      await this.bus!.publish(SUBSCRIPTIONS_CHANGED_CHANNEL, {
        sessionId,
        uri,
        watching,
        previous: held?.version ?? 0,
        version: next.version,
      } satisfies SubscriptionsChanged);
      return true;
    }
    throw new McpStoreUnavailableError(`Subscriptions of a session changed ${MAX_WRITE_ATTEMPTS} times during one write; try again`);
  }

  /** The session ended (DELETE, here): its record goes, and the instance holding its GET stream forgets it. */
  private async endSession(sessionId: string): Promise<void> {
    this.clear(sessionId);
    try {
      await this.store.delete(subscriptionsKey(sessionId));
      await this.bus!.publish(SUBSCRIPTIONS_CHANGED_CHANNEL, { sessionId, ended: true } satisfies SubscriptionsChanged);
    } catch (error) {
      // The record expires `sessions.idleTtlMs` after its last write; until then nobody can use the ended session.
      this.logger.warn(`Resource subscriptions of an ended session not deleted: ${reasonOf(error)}`);
    }
  }

  private heard(message: unknown): void {
    const change = (message ?? {}) as Partial<SubscriptionsChanged>;
    if (typeof change.sessionId !== 'string') return;
    const watched = this.watched.get(change.sessionId);
    if (!watched) return;
    if (change.ended === true) return this.clear(change.sessionId);
    const { uri, watching, previous, version } = change;
    if (typeof uri !== 'string' || typeof watching !== 'boolean' || typeof previous !== 'number' || typeof version !== 'number') return;
    if (watched.loading) {
      // Taken at once, so a change announced right after it is delivered; the read that follows settles the order.
      watched.stale = true;
      return this.apply(change.sessionId, watched, uri, watching);
    }
    if (version <= watched.version) return; // already known (this instance wrote it, or read it)
    if (previous !== watched.version) return void this.load(change.sessionId, watched); // one missed: read the record
    watched.version = version;
    this.apply(change.sessionId, watched, uri, watching);
  }

  private apply(sessionId: string, watched: Watched, uri: string, watching: boolean): void {
    if (watching && this.served(uri)) this.add(sessionId, watched, uri);
    else if (!watching) this.remove(sessionId, watched, uri);
  }

  /** The session's GET stream opened here: its subscriptions are read from the store, and followed from now on. */
  private watch(sessionId: string): void {
    if (this.watched.has(sessionId)) return;
    const watched: Watched = { version: 0, uris: new Set(), loading: false, stale: false, missed: new Map() };
    this.watched.set(sessionId, watched);
    void this.load(sessionId, watched);
  }

  private unwatch(sessionId: string): void {
    this.clear(sessionId);
    this.watched.delete(sessionId);
    this.loading.delete(sessionId);
  }

  private async load(sessionId: string, watched: Watched): Promise<void> {
    if (watched.loading) {
      watched.stale = true;
      return;
    }
    watched.loading = true;
    this.loading.add(sessionId);
    try {
      const key = subscriptionsKey(sessionId);
      const record = await this.store.get<StoredSubscriptions>(key);
      if (record && this.watched.get(sessionId) === watched) {
        this.adopt(sessionId, watched, record);
        // Renewed now: the periodic renewal may come later than the record's remaining life.
        if (record.uris.length > 0) await this.store.touch(key, this.options.sessions.idleTtlMs);
      }
    } catch (error) {
      this.logger.warn(`Resource subscriptions of a session not loaded for its GET stream: ${reasonOf(error)}`);
    } finally {
      watched.loading = false;
    }
    // The stream closed meanwhile: a stream opened since for the session has its own read and its own place in `loading`.
    if (this.watched.get(sessionId) !== watched) return;
    if (watched.stale) {
      watched.stale = false;
      await this.load(sessionId, watched);
      return;
    }
    this.loading.delete(sessionId);
    // A change published between the stream opening and the record being read reaches the stream now.
    const missed = [...watched.missed];
    watched.missed.clear();
    for (const [uri, message] of missed) if (watched.uris.has(uri)) this.streams.notifyHere(sessionId, message);
  }

  /**
   * Takes a whole record, unless it is older than what is held here (a read that raced a write). One of the same
   * version is taken too: changes announced during a read are applied at once, unversioned, and a late one (older
   * than the record) is undone only by the read after it.
   */
  private adopt(sessionId: string, watched: Watched, record: StoredSubscriptions): void {
    if (record.version < watched.version) return;
    watched.version = record.version;
    const next = new Set(record.uris.filter((uri) => this.served(uri)));
    for (const uri of watched.uris) if (!next.has(uri)) this.remove(sessionId, watched, uri);
    for (const uri of next) this.add(sessionId, watched, uri);
  }

  private add(sessionId: string, watched: Watched, uri: string): void {
    watched.uris.add(uri);
    let sessionIds = this.byUri.get(uri);
    if (!sessionIds) this.byUri.set(uri, (sessionIds = new Set()));
    sessionIds.add(sessionId);
  }

  private remove(sessionId: string, watched: Watched, uri: string): void {
    watched.uris.delete(uri);
    const sessionIds = this.byUri.get(uri);
    sessionIds?.delete(sessionId);
    if (sessionIds?.size === 0) this.byUri.delete(uri);
  }

  private clear(sessionId: string): void {
    const watched = this.watched.get(sessionId);
    if (!watched) return;
    for (const uri of [...watched.uris]) this.remove(sessionId, watched, uri);
  }

  private refreshWatched(): void {
    const ttl = this.options.sessions.idleTtlMs;
    for (const [sessionId, watched] of this.watched) {
      if (watched.uris.size === 0) continue;
      this.store.touch(subscriptionsKey(sessionId), ttl).catch((error: unknown) => {
        this.logger.warn(`Resource subscriptions of a session not kept alive: ${reasonOf(error)}`);
      });
    }
  }

  private served(uri: string): boolean {
    return this.stillServed?.(uri) ?? true;
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
