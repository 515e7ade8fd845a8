import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { McpClientTokenStore } from './mcp-client-auth-options.interface.js';

/** Entries the in-process store keeps at most; the oldest go first. */
const MAX_MEMORY_ENTRIES = 1_000;

interface Sealed {
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

/**
 * Where the client's OAuth state lives: the given store (memory, Redis) or a bounded map in this process. With an
 * encryption key every value is sealed with AES-256-GCM before it is stored, so a store dump holds no token. Keys
 * are hashed (an issuer URL or a principal never appears in them).
 */
export class McpTokenVault {
  private readonly store: McpClientTokenStore;
  private readonly key?: Buffer;

  constructor(store: McpClientTokenStore | undefined, encryptionKey: string | Uint8Array | undefined) {
    this.store = store ?? new BoundedMemoryStore(MAX_MEMORY_ENTRIES);
    if (encryptionKey !== undefined) this.key = createHash('sha256').update(encryptionKey).digest();
  }

  static keyOf(...parts: string[]): string {
    return `mcp-client:oauth:${createHash('sha256').update(parts.join('\n')).digest('base64url')}`;
  }

  async get<T>(key: string): Promise<T | undefined> {
    return this.open<T>(await this.store.get<T | Sealed>(key).catch(() => undefined));
  }

  /** A value as the store held it, opened (a consumer that took it out atomically itself). */
  open<T>(stored: unknown): T | undefined {
    if (stored === undefined || !this.key) return stored as T | undefined;
    try {
      const sealed = stored as Sealed;
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
      return JSON.parse(text) as T;
    } catch {
      // Sealed under another key, or tampered with: as if absent.
      return undefined;
    }
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const ttl = Math.max(1, Math.floor(ttlMs));
    if (!this.key) return this.store.set(key, value, ttl);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    const sealed: Sealed = { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    await this.store.set(key, sealed, ttl);
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key).catch(() => undefined);
  }
}

/** The in-process store: entries expire with their TTL, and past `max` the oldest is dropped. */
class BoundedMemoryStore implements McpClientTokenStore {
  private readonly entries = new Map<string, { value: string; expires: number }>();

  constructor(private readonly max: number) {}

  get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(JSON.parse(entry.value) as T);
  }

  set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { value: JSON.stringify(value), expires: Date.now() + ttlMs });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }
}
