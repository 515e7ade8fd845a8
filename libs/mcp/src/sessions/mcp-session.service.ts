import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpPrincipal } from '../interfaces/mcp-principal.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import type { McpSessionRecord } from './mcp-session.record.js';

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
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  async create(input: Omit<McpSessionRecord, 'id' | 'createdAt' | 'owner'> & { principal?: McpPrincipal }): Promise<McpSessionRecord> {
    const { principal, ...rest } = input;
    const record: McpSessionRecord = { ...rest, id: randomBytes(24).toString('base64url'), owner: ownerOf(principal), createdAt: Date.now() };
    await this.store.set(KEY_PREFIX + record.id, record, this.options.sessions.idleTtlMs);
    return record;
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
  }
}
