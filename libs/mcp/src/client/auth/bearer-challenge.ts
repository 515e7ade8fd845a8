/** What a `WWW-Authenticate: Bearer …` challenge of a protected MCP server says (RFC 6750 §3, RFC 9728 §5.1). */
export interface McpBearerChallenge {
  readonly error?: string;
  readonly scope?: string;
  readonly resourceMetadata?: string;
}

/** auth-param = token BWS "=" BWS ( token / quoted-string ) */
const PARAM = /([A-Za-z0-9_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/g;

/**
 * The Bearer challenge among the header's challenges (parameters of other schemes are ignored); undefined without
 * one. Only the three parameters the client acts on are kept.
 */
export function parseBearerChallenge(header: string | undefined): McpBearerChallenge | undefined {
  if (!header) return undefined;
  const start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) return undefined;
  const rest = header.slice(start).replace(/^[\s,]*Bearer/i, '');
  // The Bearer parameters end where the next scheme begins (a token followed by a space, not by "=").
  const next = rest.search(/,\s*[A-Za-z0-9_.-]+\s+[A-Za-z0-9_.-]+\s*=/);
  const params = new Map<string, string>();
  for (const match of (next < 0 ? rest : rest.slice(0, next)).matchAll(PARAM)) {
    params.set(match[1].toLowerCase(), match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]);
  }
  return { error: params.get('error'), scope: params.get('scope'), resourceMetadata: params.get('resource_metadata') };
}
