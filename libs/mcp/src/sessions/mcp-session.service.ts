import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpPrincipal } from '../interfaces/mcp-principal.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import type { McpSessionRecord } from './mcp-session.record.js';
import { DEFAULT_TENANT } from '../execution/tool-context.factory.js';

const KEY_PREFIX = 'session:';

/** The owner string a session is bound to: tenant and subject of the principal, or anonymous. */
export function ownerOf(principal: McpPrincipal | undefined): string {
  return principal ? `${principal.tenant}\u0000${principal.subject}` : 'anonymous';
}

/**
 * Sessions: cryptographically random ids (visible ASCII), stored with an idle TTL that every use refreshes,
 * and bound to the principal that created them (spec security best practices: a session is never a credential).
 */
@Injectable()
export class McpSessionService {
  /** Called with the id of every session ended here (DELETE, or its legacy stream closing). */
  private readonly endListeners = new Set<(sessionId: string) => void>();
  /** Session ids created on this instance, per tenant (for the per-tenant cap). */
  private readonly byTenant = new Map<string, Set<string>>();
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /** Creates a session, or returns undefined when the tenant already holds its cap of live sessions here. */
  async create(input: Omit<McpSessionRecord, 'id' | 'createdAt' | 'owner'> & { principal?: McpPrincipal }): Promise<McpSessionRecord | undefined> {
    const { principal, ...rest } = input;
    const tenant = principal?.tenant ?? DEFAULT_TENANT;
    if (!(await this.hasRoomFor(tenant))) return undefined;
    const record: McpSessionRecord = { ...rest, id: randomBytes(24).toString('base64url'), owner: ownerOf(principal), createdAt: Date.now() };
    await this.store.set(KEY_PREFIX + record.id, record, this.options.sessions.idleTtlMs);
    this.sessionsOf(tenant).add(record.id);
    return record;
  }

  /** Counts the tenant's sessions created here; ids that expired meanwhile are pruned only when the cap is hit. */
  private async hasRoomFor(tenant: string): Promise<boolean> {
    const ids = this.sessionsOf(tenant);
    if (ids.size < this.options.limits.maxSessionsPerTenant) return true;
    for (const id of [...ids]) if (!(await this.store.get(KEY_PREFIX + id))) ids.delete(id);
    return ids.size < this.options.limits.maxSessionsPerTenant;
  }

  private sessionsOf(tenant: string): Set<string> {
    let ids = this.byTenant.get(tenant);
    if (!ids) this.byTenant.set(tenant, (ids = new Set()));
    return ids;
  }

  /** The session if it exists and belongs to `principal`; refreshes its idle TTL. */
  async find(id: string, principal: McpPrincipal | undefined): Promise<McpSessionRecord | undefined> {
    const record = await this.store.get<McpSessionRecord>(KEY_PREFIX + id);
    if (!record || record.owner !== ownerOf(principal)) return undefined;
    await this.store.set(KEY_PREFIX + id, record, this.options.sessions.idleTtlMs);
    return record;
  }

  async update(record: McpSessionRecord): Promise<void> {
    await this.store.set(KEY_PREFIX + record.id, record, this.options.sessions.idleTtlMs);
  }

  async end(id: string): Promise<void> {
    await this.store.delete(KEY_PREFIX + id);
    for (const ids of this.byTenant.values()) ids.delete(id);
    for (const listener of this.endListeners) listener(id);
  }

  /** Lets per-session state held in memory elsewhere (resource subscriptions) be dropped with the session. */
  onEnd(listener: (sessionId: string) => void): void {
    this.endListeners.add(listener);
  }
}
