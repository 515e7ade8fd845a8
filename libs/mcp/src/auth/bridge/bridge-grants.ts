import { createHash, randomBytes } from 'node:crypto';
import type { McpKeyValueStore } from '../../stores/key-value.store.js';
import { storeKey, tenantSlotKey } from '../../stores/store-key.js';

/** A client registered with the bridge (RFC 7591); public: it proves itself with PKCE. */
export interface BridgeClient {
  client_id: string;
  redirect_uris: string[];
  client_name?: string;
  client_id_issued_at: number;
  /** Registered, no sign-in completed yet: it expires soon, counted among the few pending registrations. */
  pending?: true;
}

/** An authorization in progress: what the client asked, the identity provider leg's secrets, then the signed-in user. */
export interface BridgeTransaction {
  clientId: string;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  /** The scopes asked; once the user signed in, the scopes granted (those asked that the user may have). */
  scope: string;
  /** SHA-256 of the browser cookie that started it: every later step must come from that browser. */
  browser: string;
  /** PKCE verifier of the identity provider leg (the stored name of earlier releases, kept for sign-ins under way). */
  upstreamVerifier: string;
  nonce: string;
  user?: BridgeUser;
}

export interface BridgeUser {
  sub: string;
  tenant: string;
  email?: string;
}

/** What an authorization code stands for, until redeemed; then kept a while as spent, to catch a replay. */
export interface BridgeCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  user: BridgeUser;
  spent?: true;
  /** The grant its redemption created. */
  grantId?: string;
  /** Used again before its grant was bound: the redemption that won revokes what it created. */
  replayed?: true;
}

/** A code redeemed: its record, and `bind` to name the grant created from it (false: replayed meanwhile, grant revoked). */
export interface RedeemedCode {
  record: BridgeCode;
  bind(grant: BridgeGrant): Promise<boolean>;
}

/** A grant: one user's consent to one client, alive while its refresh token is. */
export interface BridgeGrant {
  id: string;
  clientId: string;
  scope: string;
  user: BridgeUser;
  /** SHA-256 of the current refresh token. */
  refresh: string;
  /** SHA-256 of the refresh tokens it replaced (the last few): one used again means it leaked. */
  replaced: string[];
}

export type RotateResult = { grant: BridgeGrant; refreshToken: string } | 'invalid' | 'reused';

/** How many replaced refresh tokens a grant remembers. */
const REPLACED_KEPT = 20;
const TRANSACTION_TTL_MS = 600_000;
const DOCUMENT_TTL_MS = 300_000;
/** Codes are redeemed by the client right after the redirect (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const CODE_TTL_MS = 60_000;
/** How long a spent code is remembered: a replay within it revokes the grant the code created. */
const SPENT_CODE_TTL_MS = 600_000;
const PENDING_CLIENTS = storeKey('oauth-bridge', 'pending-clients');

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * The bridge's records in the library's store (memory or Redis): clients, transactions, single-use codes and grants
 * with rotating refresh tokens, each with a TTL; live grants are counted per tenant, bounded.
 */
export class BridgeGrants {
  constructor(
    private readonly store: McpKeyValueStore,
    private readonly settings: {
      clientTtlMs: number;
      grantTtlMs: number;
      maxGrantsPerTenant: number;
      /** How long a registration lives until a sign-in completes with it. */
      pendingClientTtlMs: number;
      /** Registrations pending at once: what anonymous registrations may hold of the store. */
      maxPendingClients: number;
    },
  ) {}

  /** Saves a new registration as pending; false when too many are pending already. */
  async savePendingClient(client: BridgeClient): Promise<boolean> {
    const { pendingClientTtlMs: ttlMs, maxPendingClients: limit } = this.settings;
    if ((await this.store.reserveSlot(client.client_id, [{ key: PENDING_CLIENTS, limit }], ttlMs)) !== -1) return false;
    await this.store.set(this.clientKey(client.client_id), { ...client, pending: true }, ttlMs);
    return true;
  }

  /** A pending registration whose sign-in completed: kept as long as registrations live, and no longer pending. */
  async confirmClient(client: BridgeClient): Promise<void> {
    if (!client.pending) return;
    const { pending: _pending, ...confirmed } = client;
    await this.store.set(this.clientKey(client.client_id), confirmed, this.settings.clientTtlMs);
    await this.store.releaseSlot(client.client_id, [PENDING_CLIENTS]);
  }

  client(id: string): Promise<BridgeClient | undefined> {
    return this.store.get<BridgeClient>(this.clientKey(id));
  }

  private clientKey(id: string): string {
    return storeKey('oauth-bridge', 'client', id);
  }

  /** A client ID metadata document fetched lately (kept 5 minutes). */
  cachedDocument(clientId: string): Promise<BridgeClient | undefined> {
    return this.store.get<BridgeClient>(storeKey('oauth-bridge', 'cimd', clientId));
  }

  async cacheDocument(client: BridgeClient): Promise<void> {
    await this.store.set(storeKey('oauth-bridge', 'cimd', client.client_id), client, DOCUMENT_TTL_MS);
  }

  /** Opens a transaction; its id is the identity provider's `state`. */
  async openTransaction(transaction: BridgeTransaction): Promise<string> {
    const id = randomToken();
    await this.store.set(storeKey('oauth-bridge', 'tx', id), transaction, TRANSACTION_TTL_MS);
    return id;
  }

  transaction(id: string): Promise<BridgeTransaction | undefined> {
    return this.store.get<BridgeTransaction>(storeKey('oauth-bridge', 'tx', id));
  }

  /** Replaces the transaction only if it is still `current` (one callback wins). */
  updateTransaction(id: string, current: BridgeTransaction, next: BridgeTransaction): Promise<boolean> {
    return this.store.compareAndSet(storeKey('oauth-bridge', 'tx', id), current, next, TRANSACTION_TTL_MS);
  }

  /** Ends the transaction; true for the one caller that ended it. */
  closeTransaction(id: string, current: BridgeTransaction): Promise<boolean> {
    return this.store.deleteIfEquals(storeKey('oauth-bridge', 'tx', id), current);
  }

  /** A new authorization code for `record`; only its hash is kept. */
  async issueCode(record: BridgeCode): Promise<string> {
    const code = randomToken();
    await this.store.set(storeKey('oauth-bridge', 'code', sha256(code)), record, CODE_TTL_MS);
    return code;
  }

  /**
   * The code's record, once: it is marked spent and kept a while, so a second redemption revokes the grant the first
   * created (RFC 6749 §4.1.2) and finds nothing, like an expired code.
   */
  async redeemCode(code: string): Promise<RedeemedCode | undefined> {
    const key = storeKey('oauth-bridge', 'code', sha256(code));
    for (let attempt = 0; attempt < 3; attempt++) {
      const record = await this.store.get<BridgeCode>(key);
      if (!record) return undefined;
      if (record.spent) {
        if (record.grantId) {
          const grant = await this.grant(record.grantId);
          if (grant) await this.revoke(grant);
          return undefined;
        }
        // Redeemed, its grant not bound yet: the flag makes the winner revoke it.
        if (record.replayed || (await this.store.compareAndSet(key, record, { ...record, replayed: true }, SPENT_CODE_TTL_MS)))
          return undefined;
        continue;
      }
      const spent: BridgeCode = { ...record, spent: true };
      if (!(await this.store.compareAndSet(key, record, spent, SPENT_CODE_TTL_MS))) continue;
      return {
        record,
        bind: async (grant) => {
          if (await this.store.compareAndSet(key, spent, { ...spent, grantId: grant.id }, SPENT_CODE_TTL_MS)) return true;
          await this.revoke(grant);
          return false;
        },
      };
    }
    return undefined;
  }

  /** A new grant and its first refresh token; undefined when the tenant holds its most grants already. */
  async createGrant(clientId: string, scope: string, user: BridgeUser): Promise<{ grant: BridgeGrant; refreshToken: string } | undefined> {
    const id = randomToken(18);
    const full = await this.store.reserveSlot(
      id,
      [{ key: this.tenantSet(user.tenant), limit: this.settings.maxGrantsPerTenant }],
      this.settings.grantTtlMs,
    );
    if (full !== -1) return undefined;
    const refreshToken = `${id}.${randomToken()}`;
    const grant: BridgeGrant = { id, clientId, scope, user, refresh: sha256(refreshToken), replaced: [] };
    await this.store.set(this.grantKey(id), grant, this.settings.grantTtlMs);
    return { grant, refreshToken };
  }

  grant(id: string): Promise<BridgeGrant | undefined> {
    return this.store.get<BridgeGrant>(this.grantKey(id));
  }

  /**
   * Refresh-token rotation (OAuth 2.1 §4.3.1): the current token of `clientId`'s grant gets a new one; a token this
   * grant already replaced revokes the whole grant (`reused`): either the client or a thief holds a stale copy.
   */
  async rotate(refreshToken: string, clientId: string): Promise<RotateResult> {
    const id = refreshToken.split('.')[0];
    const grant = id ? await this.grant(id) : undefined;
    if (!grant || grant.clientId !== clientId) return 'invalid';
    const hash = sha256(refreshToken);
    if (grant.replaced.includes(hash)) {
      await this.revoke(grant);
      return 'reused';
    }
    if (grant.refresh !== hash) return 'invalid';
    const next = `${id}.${randomToken()}`;
    const rotated: BridgeGrant = { ...grant, refresh: sha256(next), replaced: [hash, ...grant.replaced].slice(0, REPLACED_KEPT) };
    // Two refreshes racing with one token: one wins, the other is a reuse.
    if (!(await this.store.compareAndSet(this.grantKey(id), grant, rotated, this.settings.grantTtlMs))) {
      const now = await this.grant(id);
      if (now) await this.revoke(now);
      return 'reused';
    }
    return { grant: rotated, refreshToken: next };
  }

  async revoke(grant: BridgeGrant): Promise<void> {
    await this.store.delete(this.grantKey(grant.id));
    await this.store.releaseSlot(grant.id, [this.tenantSet(grant.user.tenant)]);
  }

  private grantKey(id: string): string {
    return storeKey('oauth-bridge', 'grant', id);
  }

  private tenantSet(tenant: string): string {
    return tenantSlotKey('oauth-bridge-grants', tenant);
  }
}
