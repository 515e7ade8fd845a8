/** What one bridge endpoint answers; the HTTP transport writes it as is. */
export interface BridgeReply {
  status: number;
  headers: Record<string, string | string[]>;
  body?: string;
}

/** What the HTTP transport hands the bridge of one request. */
export interface BridgeRequest {
  query: URLSearchParams;
  /** The form (or JSON) body of a POST, as strings. */
  form: Record<string, unknown>;
  cookies: Record<string, string>;
  /** The caller's address (`X-Forwarded-For`'s last entry with `http.trustProxy`): budgets are counted per address. */
  address: string;
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function json(status: number, value: unknown, extra: Record<string, string> = {}): BridgeReply {
  return { status, headers: { 'Content-Type': 'application/json', ...NO_STORE, ...extra }, body: JSON.stringify(value) };
}

/** An RFC 6749 §5.2 error: a fixed code and a short text that never echoes a secret. */
export function oauthError(status: number, error: string, description: string): BridgeReply {
  return json(status, { error, error_description: description });
}

/** `slow_down` (429) with `Retry-After`: a caller over its budget. */
export function tooMany(retryAfterMs: number, description: string): BridgeReply {
  return json(429, { error: 'slow_down', error_description: description }, { 'Retry-After': retryAfterSeconds(retryAfterMs) });
}

const retryAfterSeconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

export function redirect(location: string, cookies: string[] = []): BridgeReply {
  return { status: 302, headers: { Location: location, ...NO_STORE, ...(cookies.length > 0 && { 'Set-Cookie': cookies }) } };
}

/** A page of the bridge: no script at all, not framable, sent nowhere as a referrer. */
export function page(status: number, html: string, formTargets: string[] = []): BridgeReply {
  return {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      ...NO_STORE,
      'Content-Security-Policy':
        `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${formTargets.join(' ')}; frame-ancestors 'none'; base-uri 'none'`.replace(
          /\s+;/g,
          ';',
        ),
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: html,
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A plain error page for a request that is not sent back to its client (`retryAfterMs`: a 429's `Retry-After`). */
export function errorPage(status: number, message: string, retryAfterMs?: number): BridgeReply {
  const reply = page(
    status,
    `<!doctype html><html><head><meta charset="utf-8"><title>Sign-in error</title></head><body><h1>Sign-in error</h1><p>${escapeHtml(message)}</p></body></html>`,
  );
  if (retryAfterMs !== undefined) reply.headers['Retry-After'] = retryAfterSeconds(retryAfterMs);
  return reply;
}
