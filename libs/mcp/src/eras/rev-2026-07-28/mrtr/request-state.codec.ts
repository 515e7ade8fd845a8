import { Inject, Injectable, Optional } from '@nestjs/common';
import { McpBootNotices } from '../../../core/boot-notices.js';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../../core/mcp-resolved-options.token.js';
import { Rev20260728Messages } from '../rev-2026-07-28.messages.js';

/** What a `requestState` carries between rounds of one multi round-trip request. */
export interface McpRequestState {
  /** Who may continue it (`ownerOf(principal)`). */
  readonly owner: string;
  /** The method and a digest of the params that matter (tool/prompt name and arguments, resource URI). */
  readonly method: string;
  readonly digest: string;
  /** Round number, from 1: every round mints a new state. */
  readonly round: number;
  /** The client's answers collected so far, by input request key. */
  readonly answers: Record<string, unknown>;
}

interface Envelope extends McpRequestState {
  readonly expiresAt: number;
  readonly nonce: string;
}

const VERSION = 'v1';

/**
 * Seals and opens `requestState` strings: base64url JSON plus an HMAC-SHA256 over it, with an expiry. The state
 * is attacker-controlled input once it leaves the server, so anything that does not verify, has expired, or was
 * minted for another caller, method or argument set is refused (the caller answers -32602).
 */
@Injectable()
export class McpRequestStateCodec {
  private readonly key: Buffer;
  private readonly ttlMs: number;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: McpResolvedOptions, @Optional() notices: McpBootNotices = new McpBootNotices()) {
    this.ttlMs = options.requestState.ttlMs;
    if (options.requestState.secret !== undefined) {
      this.key = Buffer.from(options.requestState.secret, 'utf8');
    } else {
      this.key = randomBytes(32);
      // It matters only where a retry may reach another instance: with `redis`, the library's way of serving one URL
      // from several. Alone, a random key is the right one, and the warning was noise at every boot.
      if (options.redis) notices.warn('McpModule', Rev20260728Messages.randomRequestStateSecret());
    }
  }

  seal(state: McpRequestState, now = Date.now()): string {
    const envelope: Envelope = { ...state, expiresAt: now + this.ttlMs, nonce: randomBytes(12).toString('base64url') };
    const body = `${VERSION}.${Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url')}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The state, or undefined when it is forged, altered, expired or malformed. */
  open(sealed: unknown, now = Date.now()): McpRequestState | undefined {
    if (typeof sealed !== 'string' || sealed.length > 1_000_000) return undefined;
    const cut = sealed.lastIndexOf('.');
    if (cut < 0) return undefined;
    const body = sealed.slice(0, cut);
    const given = Buffer.from(sealed.slice(cut + 1), 'base64url');
    const expected = Buffer.from(this.mac(body), 'base64url');
    if (!body.startsWith(`${VERSION}.`) || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const envelope = JSON.parse(Buffer.from(body.slice(VERSION.length + 1), 'base64url').toString('utf8')) as Envelope;
      if (typeof envelope.expiresAt !== 'number' || envelope.expiresAt < now) return undefined;
      if (typeof envelope.answers !== 'object' || envelope.answers === null) return undefined;
      return { owner: envelope.owner, method: envelope.method, digest: envelope.digest, round: envelope.round, answers: envelope.answers };
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/** SHA-256 of a value's canonical JSON (object keys sorted), so equal params give equal digests. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
