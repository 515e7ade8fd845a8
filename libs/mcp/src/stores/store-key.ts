/**
 * Store keys join caller-controlled parts with `:`, so each part is escaped: `%`, `:` and control characters
 * become `%XX` (no `job:acme:eu:<id>` collisions), a lone surrogate `%uXXXX` (UTF-8 would merge it into U+FFFD).
 */
const ESCAPED = /[%:\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** One key part, escaped so it cannot contain the separator. */
export function encodeKeyPart(part: string): string {
  return part.replace(ESCAPED, (char) => {
    const code = char.charCodeAt(0);
    return code > 0xff ? `%u${code.toString(16).toUpperCase().padStart(4, '0')}` : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
  });
}

/** `storeKey('job', tenant, id)` → `job:<tenant>:<id>`, each part escaped: distinct parts give distinct keys. */
export function storeKey(...parts: string[]): string {
  return parts.map(encodeKeyPart).join(':');
}

/**
 * `quota:{<tenant>}:...`: Redis Cluster hashes only the first `{...}`, so one tenant's keys share a slot (one
 * script may touch several) while tenants spread. Braces in the tenant are escaped, so the tag ends with it.
 */
export function tenantSlotKey(kind: string, tenant: string, ...rest: string[]): string {
  const tag = encodeKeyPart(tenant).replace(/[{}]/g, (brace) => (brace === '{' ? '%7B' : '%7D'));
  return [encodeKeyPart(kind), `{${tag}}`, ...rest.map(encodeKeyPart)].join(':');
}
