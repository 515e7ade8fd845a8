const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A redirect URI a client may register: https, or http on loopback (RFC 8252 §7.3); no fragment, no credentials. */
export function isAcceptableRedirectUri(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2_000) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}
