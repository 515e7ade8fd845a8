import type { IncomingMessage } from 'node:http';

/**
 * The address a request came from: the socket's peer or, with `http.trustProxy`, the last `X-Forwarded-For` entry,
 * the one the proxy in front added itself (the entries before it are the client's word). Budgets per caller count
 * by it.
 */
export function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers['x-forwarded-for'];
    const last = [forwarded ?? []].flat().join(',').split(',').pop()?.trim();
    // An address is at most 45 characters: anything longer is cut, so a key built from it stays small.
    if (last) return last.slice(0, 64);
  }
  return request.socket?.remoteAddress ?? 'unknown';
}
