import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import { storeKey } from '../stores/store-key.js';
import { McpTenantQuotas } from '../stores/tenant-quotas.js';
import type { McpSessionRecord } from './mcp-session.record.js';
import { MCP_METRICS, NOOP_MCP_METRICS, type McpMetrics } from '../core/mcp-metrics.interface.js';
import { MCP_BUS, type McpMessageBus } from '../core/message-bus.interface.js';
import { tenantOf } from '../core/tenant.js';

/** Bus channel on which a session's end reaches the other instances (they close what they hold for it). */
const SESSION_ENDED_CHANNEL = 'sessions:ended';

/** The owner a session (or request state) is bound to: the principal's tenant and subject, each escaped (no collisions). */
export function ownerOf(principal: McpPrincipal | undefined): string {
  return principal ? storeKey('principal', principal.tenant, principal.subject) : 'anonymous';
}

function sessionKey(id: string): string {
  return storeKey('session', id);
}

/**
 * Sessions: random ids with an idle TTL every use refreshes, bound to the principal that created them (spec
 * security best practices: a session is never a credential), each holding a place in its tenant's quotas. A
 * request on a session costs two store calls: the read, and a `touch` of the record and its quota places.
 */
@Injectable()
export class McpSessionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpSessionService');
  /** Called with the id of every session ended here (DELETE, or its 2024-11-05 HTTP+SSE stream closing). */
  private readonly endListeners = new Set<(sessionId: string) => void>();
  /** Called with the id of every session another instance ended (announced on the bus). */
  private readonly elsewhereListeners = new Set<(sessionId: string) => void>();
  /** Tells this instance's own announcements apart from the others'. */
  private readonly origin = randomBytes(6).toString('base64url');
  private stopListening?: () => Promise<void>;
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly quotas: McpTenantQuotas,
    @Optional() @Inject(MCP_METRICS) private readonly metrics: McpMetrics = NOOP_MCP_METRICS,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.bus?.crossesInstances) return;
    this.stopListening = await this.bus.subscribe(SESSION_ENDED_CHANNEL, (message) => {
      const { id, origin } = (message ?? {}) as { id?: unknown; origin?: unknown };
      if (typeof id !== 'string' || origin === this.origin) return;
      for (const listener of this.elsewhereListeners) listener(id);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopListening?.().catch(() => undefined);
  }

  /** Creates a session, or returns undefined when the tenant already holds its quota of live sessions or records. */
  async create(
    input: Omit<McpSessionRecord, 'id' | 'createdAt' | 'owner' | 'tenant'> & { principal?: McpPrincipal },
  ): Promise<McpSessionRecord | undefined> {
    const { principal, ...rest } = input;
    const tenant = tenantOf(principal);
    const record: McpSessionRecord = {
      ...rest,
      id: randomBytes(24).toString('base64url'),
      owner: ownerOf(principal),
      tenant,
      createdAt: Date.now(),
    };
    if (await this.quotas.reserve(tenant, 'session', sessionKey(record.id), this.options.sessions.idleTtlMs)) return undefined;
    await this.store.set(sessionKey(record.id), record, this.options.sessions.idleTtlMs);
    this.metrics.sessionOpened(record.id);
    return record;
  }

  /** The session if it exists and belongs to `principal`, its idle TTL and quota places refreshed (one `touch`). */
  async find(id: string, principal: McpPrincipal | undefined): Promise<McpSessionRecord | undefined> {
    const record = await this.store.get<McpSessionRecord>(sessionKey(id));
    if (!record || record.owner !== ownerOf(principal)) return undefined;
    // Expired between the two calls: gone, as if the read had come a moment later.
    if (!(await this.quotas.touch(record.tenant, 'session', sessionKey(id), this.options.sessions.idleTtlMs))) return undefined;
    this.metrics.sessionSeen(id);
    return record;
  }

  async update(record: McpSessionRecord): Promise<void> {
    const ttlMs = this.options.sessions.idleTtlMs;
    // A session in use stays counted as long as it lives; it was admitted already, so a full quota is ignored.
    await Promise.all([
      this.store.set(sessionKey(record.id), record, ttlMs),
      this.quotas.reserve(record.tenant, 'session', sessionKey(record.id), ttlMs),
    ]);
  }

  async end(id: string): Promise<void> {
    const record = await this.store.get<McpSessionRecord>(sessionKey(id));
    await this.store.delete(sessionKey(id));
    this.metrics.sessionEnded(id);
    if (record) await this.quotas.release(record.tenant, 'session', sessionKey(id));
    for (const listener of this.endListeners) listener(id);
    if (!this.bus?.crossesInstances) return;
    // Best effort: the session is gone from the store either way; another instance's GET stream then ends at its
    // next request for the session, or with the client.
    await this.bus.publish(SESSION_ENDED_CHANNEL, { id, origin: this.origin }).catch((error: unknown) => {
      this.logger.warn(`Session end not announced to the other instances: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Lets per-session state held in memory elsewhere (resource subscriptions) be dropped with the session. */
  onEnd(listener: (sessionId: string) => void): void {
    this.endListeners.add(listener);
  }

  /** Lets an instance close what it holds for a session another instance ended (its GET stream, after a DELETE there). */
  onEndElsewhere(listener: (sessionId: string) => void): void {
    this.elsewhereListeners.add(listener);
  }
}
