import { McpClient } from '../../client/mcp-client.js';
import type { McpClientHttpOptions } from '../../client/mcp-client-options.interface.js';

const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_IDLE_MS = 5 * 60_000;

interface TenantSession {
  readonly client: McpClient;
  lastUsed: number;
  /** The `Authorization` header of the latest call, when the caller's token is forwarded. */
  authorization?: string;
}

/** How one tenant's upstream session is opened: its own headers (credentials resolved once per session). */
export type TenantClientFactory = (tenant: string, session: { readonly authorization: () => string | undefined }) => McpClientHttpOptions;

/**
 * One upstream session per calling tenant for an HTTP upstream, so its per-session state never crosses tenants.
 * Bounded: at most `max` sessions (the least recently used is closed to open another), each closed after `idleMs`
 * without a call.
 */
export class UpstreamTenantSessions {
  private readonly sessions = new Map<string, TenantSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly open: TenantClientFactory,
    private readonly max = DEFAULT_MAX_SESSIONS,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(idleMs, 60_000));
    this.sweeper.unref();
  }

  /** The tenant's client (opened on first use); `authorization` is what a forwarding upstream sends next. */
  clientFor(tenant: string, authorization?: string): McpClient {
    let session = this.sessions.get(tenant);
    if (session) {
      this.sessions.delete(tenant); // re-inserted last: the Map's order is least recently used first
    } else {
      if (this.sessions.size >= this.max) this.evict(this.sessions.keys().next().value!);
      const created: TenantSession = { client: undefined as unknown as McpClient, lastUsed: Date.now() };
      (created as { client: McpClient }).client = new McpClient(this.open(tenant, { authorization: () => created.authorization }));
      session = created;
    }
    session.lastUsed = Date.now();
    session.authorization = authorization;
    this.sessions.set(tenant, session);
    return session.client;
  }

  /** Tenants holding a session now (oldest use first). */
  get tenants(): string[] {
    return [...this.sessions.keys()];
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const clients = [...this.sessions.values()].map((session) => session.client);
    this.sessions.clear();
    await Promise.all(clients.map((client) => client.close()));
  }

  private sweep(): void {
    const oldest = Date.now() - this.idleMs;
    for (const [tenant, session] of this.sessions) if (session.lastUsed < oldest) this.evict(tenant);
  }

  private evict(tenant: string): void {
    const session = this.sessions.get(tenant);
    this.sessions.delete(tenant);
    void session?.client.close();
  }
}
