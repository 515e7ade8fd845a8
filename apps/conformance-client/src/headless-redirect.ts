/**
 * The conformance suite's authorization servers sign nobody in: they answer the authorization URL with a redirect
 * to the client's `redirect_uri`. This stands in for the user's browser: it GETs the URL without following the
 * redirect and hands back where it points (the callback with `code`, `state` and perhaps `iss`).
 */
export async function followAuthorizationRedirect(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || !location) {
    throw new Error(`The authorization endpoint answered HTTP ${response.status} without a redirect`);
  }
  return new URL(location, authorizationUrl);
}
