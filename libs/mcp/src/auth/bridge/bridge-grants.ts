import { createHash, randomBytes } from 'node:crypto';
import type { McpKeyValueStore } from '../../stores/key-value.store.js';
import { storeKey, tenantSlotKey } from '../../stores/store-key.js';

/** A client registered with the bridge (RFC 7591); public: it proves itself with PKCE. */
export interface BridgeClient {
  client_id: string;
  redirect_uris: string[];
  client_name?: string;
  client_id_issued_at: number;
}

/** An authorization in progress: what the client asked, the upstream leg's secrets, then the signed-in user. */
export interface BridgeTransaction {
  clientId: string;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  scope: string;
  /** SHA-256 of the browser cookie that started it: every later step must come from that browser. */
  browser: string;
  upstreamVerifier: string;
  nonce: string;
  user?: BridgeUser;
}

export interface BridgeUser {
  sub: string;
  tenant: string;
  email?: string;
}

/** What an authorization code stands for, until redeemed. */
export interface BridgeCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  user: BridgeUser;
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
    private readonly settings: { clientTtlMs: number; grantTtlMs: number; maxGrantsPerTenant: number },
  ) {}

  async saveClient(client: BridgeClient): Promise<void> {
    await this.store.set(storeKey('oauth-bridge', 'client', client.client_id), client, this.settings.clientTtlMs);
  }

  client(id: string): Promise<BridgeClient | undefined> {
    return this.store.get<BridgeClient>(storeKey('oauth-bridge', 'client', id));
  }

  /** A client ID metadata document fetched lately (kept 5 minutes). */
  cachedDocument(clientId: string): Promise<BridgeClient | undefined> {
    return this.store.get<BridgeClient>(storeKey('oauth-bridge', 'cimd', clientId));
  }

  async cacheDocument(client: BridgeClient): Promise<void> {
    await this.store.set(storeKey('oauth-bridge', 'cimd', client.client_id), client, DOCUMENT_TTL_MS);
  }

  /** Counts one request in the current minute of `kind`; false beyond `limit`. */
  async withinRate(kind: string, limit: number): Promise<boolean> {
    const window = Math.floor(Date.now() / 60_000);
    return (await this.store.increment(storeKey('oauth-bridge', 'rate', kind, String(window)), 60_000)) <= limit;
  }

  /** Opens a transaction; its id is the upstream `state`. */
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

  /** The code's record, once: a second redemption (or an expired code) finds nothing. */
  async redeemCode(code: string): Promise<BridgeCode | undefined> {
    const key = storeKey('oauth-bridge', 'code', sha256(code));
    const record = await this.store.get<BridgeCode>(key);
    if (!record || !(await this.store.deleteIfEquals(key, record))) return undefined;
    return record;
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
