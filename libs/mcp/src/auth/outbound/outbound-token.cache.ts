/** A token and when it stops being handed out (ms since the epoch). */
export interface CachedToken {
  readonly token: string;
  readonly until: number;
}

/**
 * Tokens by key (a caller's token digest, or one key for this server's own): handed out until shortly before they
 * expire, at most `max` kept (the least recently used dropped first), and one request in flight per key, so calls
 * of one caller at the same moment share one token request.
 */
export class OutboundTokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<CachedToken>>();

  constructor(private readonly max: number) {}

  async get(key: string, mint: () => Promise<CachedToken>): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached && cached.until > Date.now()) {
      this.tokens.delete(key); // re-inserted last: the Map's order is least recently used first
      this.tokens.set(key, cached);
      return cached.token;
    }
    this.tokens.delete(key);
    let flight = this.pending.get(key);
    if (!flight) {
      // Bounded too: a burst of new callers holds at most `max` requests.
      if (this.pending.size >= this.max) throw new RangeError('too many token requests in flight');
      flight = mint().finally(() => this.pending.delete(key));
      this.pending.set(key, flight);
    }
    const minted = await flight;
    if (minted.until > Date.now()) this.keep(key, minted);
    return minted.token;
  }

  get size(): number {
    return this.tokens.size;
  }

  private keep(key: string, token: CachedToken): void {
    this.tokens.delete(key);
    if (this.tokens.size >= this.max) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(key, token);
  }
}
