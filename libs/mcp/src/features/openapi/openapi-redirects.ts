/** How many redirects within one origin a request follows. */
export const MAX_REDIRECTS = 5;

/** Why a redirect was not followed, as a message says it. */
export type RedirectRefusal = 'another origin' | 'a redirect loop' | `more than ${typeof MAX_REDIRECTS} redirects`;

/** A redirect not followed: to another origin, back to where the request already was, or one too many. */
export class RedirectNotFollowed extends Error {
  constructor(
    readonly status: number,
    readonly to: URL,
    readonly why: RedirectRefusal,
  ) {
    super(`HTTP ${status} to ${to.origin}${to.pathname} not followed: ${why}`);
  }
}

/**
 * fetch, following redirects only within the origin of `url`: fetch itself drops `Authorization` on a cross-origin
 * redirect but would carry every other header (a configured API key) to wherever the API points, and a document's
 * origin decides where its calls go. 303, and 301/302 after a POST, continue as a GET without body, as fetch does.
 * Throws {@link RedirectNotFollowed}; the answer and the URL that gave it otherwise.
 */
export async function fetchWithinOrigin(url: URL, init: RequestInit): Promise<{ response: Response; url: URL }> {
  let current = url;
  let currentInit = init;
  const visited = new Set<string>();
  for (let hop = 0; ; hop++) {
    visited.add(`${currentInit.method ?? 'GET'} ${current.href}`);
    const response = await fetch(current, { ...currentInit, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return { response, url: current };
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, current);
    if (next.origin !== url.origin) throw new RedirectNotFollowed(response.status, next, 'another origin');
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && currentInit.method === 'POST')) {
      const headers = { ...(currentInit.headers as Record<string, string>) };
      delete headers['content-type'];
      currentInit = { ...currentInit, method: 'GET', headers, body: undefined };
    }
    if (visited.has(`${currentInit.method ?? 'GET'} ${next.href}`)) throw new RedirectNotFollowed(response.status, next, 'a redirect loop');
    if (hop >= MAX_REDIRECTS) throw new RedirectNotFollowed(response.status, next, `more than ${MAX_REDIRECTS} redirects`);
    current = next;
  }
}
