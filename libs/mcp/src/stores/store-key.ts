/**
 * Store keys and owner strings are built from parts joined by `:`. Tenants, subjects, tool names and client
 * keys are caller-controlled, so each part is escaped: `%`, `:` and control characters become `%XX`, and a
 * lone UTF-16 surrogate (which UTF-8 would turn into U+FFFD, merging two tenants in Redis) becomes `%uXXXX`.
 * No escaped part contains `:`, so `job:acme:eu:<id>`-style collisions (tenant `acme:eu` versus tenant `acme`
 * asking for job `eu:<id>`) cannot happen. Other characters (`/`, non-ASCII letters) stay readable.
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
 * `tenantSlotKey('quota', tenant, 'limits.maxSessionsPerTenant')` → `quota:{<tenant>}:limits.maxSessionsPerTenant`.
 * Redis Cluster hashes only what the first `{...}` holds, so every key built here for one tenant lands on one
 * slot: a script may touch several of them (its quota sets, its call counters), and tenants still spread over
 * the cluster. Braces inside the tenant are escaped too, so the tag always ends where the tenant does.
 */
export function tenantSlotKey(kind: string, tenant: string, ...rest: string[]): string {
  const tag = encodeKeyPart(tenant).replace(/[{}]/g, (brace) => (brace === '{' ? '%7B' : '%7D'));
  return [encodeKeyPart(kind), `{${tag}}`, ...rest.map(encodeKeyPart)].join(':');
}
