import { createHash } from 'node:crypto';
import { McpClient } from '../../client/mcp-client.js';
import type { McpClientHttpOptions } from '../../client/mcp-client-options.interface.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';

const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_IDLE_MS = 5 * 60_000;

interface UpstreamSession {
  readonly client: McpClient;
  readonly tenant: string;
  lastUsed: number;
  /** The latest call's headers, for the requests sent outside any call (the GET stream reopened, the closing DELETE). */
  latest?: Readonly<Record<string, string>>;
}

/**
 * How one upstream session is opened for a tenant; `callHeaders` gives the credential headers of a request being sent:
 * its call's own (the client hands the session's header function the call's `headers`), else the latest call's.
 */
export type UpstreamSessionFactory = (
  tenant: string,
  callHeaders: (call: Readonly<Record<string, string>> | undefined) => Readonly<Record<string, string>> | undefined,
) => McpClientHttpOptions;

/** Who an upstream session is for: the tenant, and when the credential is the caller's, the caller's identity. */
export interface UpstreamSessionOwner {
  readonly tenant: string;
  readonly principal?: McpPrincipal;
}

/**
 * The key of a call's upstream session. When the credential is the caller's (forwarded or exchanged) the session is
 * that caller's alone, since the upstream binds it to whoever opened it: one per principal, or without a principal
 * (open access) one per caller token (by digest), and one for callers without any. Otherwise one per tenant.
 */
export function upstreamSessionKey(owner: UpstreamSessionOwner, perCaller: boolean, callerAuthorization?: string): string {
  if (!perCaller) return owner.tenant;
  const who = owner.principal
    ? `principal:${owner.principal.subject}`
    : callerAuthorization
      ? `token:${createHash('sha256').update(callerAuthorization).digest('base64url')}`
      : 'anonymous';
  return `${owner.tenant}\n${who}`;
}

/**
 * Upstream sessions of an HTTP upstream by key ({@link upstreamSessionKey}), so one tenant's or caller's session state
 * never serves another. Bounded: at most `max` sessions (the least recently used is closed to open another), each
 * closed after `idleMs` without a call.
 */
export class UpstreamSessions {
  private readonly sessions = new Map<string, UpstreamSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly open: UpstreamSessionFactory,
    private readonly max = DEFAULT_MAX_SESSIONS,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(idleMs, 60_000));
    this.sweeper.unref();
  }

  /**
   * Runs `call` on the session of `key` (opened on first use); it passes `headers` as its client call's `headers`, so
   * each request of the call carries that call's own credential, whoever else sends on the same session at the same
   * moment (as an option of the call, not an async context: one on the hot path costs every promise of the process).
   */
  run<T>(
    key: string,
    tenant: string,
    headers: Readonly<Record<string, string>>,
    call: (client: McpClient, headers: Readonly<Record<string, string>>) => Promise<T>,
  ): Promise<T> {
    const session = this.sessionFor(key, tenant);
    if (Object.keys(headers).length > 0) session.latest = headers;
    return call(session.client, headers);
  }

  /** Tenants holding a session now, one entry per session (oldest use first). */
  get tenants(): string[] {
    return [...this.sessions.values()].map((session) => session.tenant);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const clients = [...this.sessions.values()].map((session) => session.client);
    this.sessions.clear();
    await Promise.all(clients.map((client) => client.close()));
  }

  private sessionFor(key: string, tenant: string): UpstreamSession {
    let session = this.sessions.get(key);
    if (session) {
      this.sessions.delete(key); // re-inserted last: the Map's order is least recently used first
    } else {
      if (this.sessions.size >= this.max) this.evict(this.sessions.keys().next().value!);
      // The client reads the session's latest headers only when it sends, after the session exists.
      const created: UpstreamSession = {
        tenant,
        lastUsed: Date.now(),
        client: new McpClient(this.open(tenant, (call) => call ?? created.latest)),
      };
      session = created;
    }
    session.lastUsed = Date.now();
    this.sessions.set(key, session);
    return session;
  }

  private sweep(): void {
    const oldest = Date.now() - this.idleMs;
    for (const [key, session] of this.sessions) if (session.lastUsed < oldest) this.evict(key);
  }

  private evict(key: string): void {
    const session = this.sessions.get(key);
    this.sessions.delete(key);
    void session?.client.close();
  }
}
