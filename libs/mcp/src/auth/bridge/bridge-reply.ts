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
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function json(status: number, value: unknown, extra: Record<string, string> = {}): BridgeReply {
  return { status, headers: { 'Content-Type': 'application/json', ...NO_STORE, ...extra }, body: JSON.stringify(value) };
}

/** An RFC 6749 §5.2 error: a fixed code and a short text that never echoes a secret. */
export function oauthError(status: number, error: string, description: string): BridgeReply {
  return json(status, { error, error_description: description });
}

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

/** A plain error page for a request that cannot be sent back to a client (no trusted redirect URI yet). */
export function errorPage(status: number, message: string): BridgeReply {
  return page(
    status,
    `<!doctype html><html><head><meta charset="utf-8"><title>Sign-in error</title></head><body><h1>Sign-in error</h1><p>${escapeHtml(message)}</p></body></html>`,
  );
}
