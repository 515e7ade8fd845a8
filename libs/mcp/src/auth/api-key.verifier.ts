import { createHash, timingSafeEqual } from 'node:crypto';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import type { McpApiKey } from '../options/mcp-auth-options.interface.js';

interface StoredKey {
  digest: Buffer;
  principal: McpPrincipal;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** API keys compared in constant time: equal-length digests, `timingSafeEqual`, every key compared (no early exit). */
export class ApiKeyVerifier {
  private readonly keys: StoredKey[];

  constructor(keys: McpApiKey[]) {
    this.keys = keys.map((entry, index) => ({
      digest: digest(entry.key),
      principal: {
        subject: entry.subject ?? `api-key:${entry.tenant}:${index}`,
        tenant: entry.tenant,
        scopes: [...(entry.scopes ?? [])],
        claims: {},
      },
    }));
  }

  verify(candidate: string): McpPrincipal | undefined {
    const candidateDigest = digest(candidate);
    let match: McpPrincipal | undefined;
    for (const key of this.keys) {
      if (timingSafeEqual(key.digest, candidateDigest) && !match) match = key.principal;
    }
    return match && { ...match, scopes: [...match.scopes], claims: {} };
  }
}
