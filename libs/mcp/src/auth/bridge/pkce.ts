import { createHash, timingSafeEqual } from 'node:crypto';

/** An S256 challenge: the base64url SHA-256 of a verifier, 43 characters (RFC 7636 §4.2). */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Whether `/authorize` may accept this challenge: S256 only (`plain` would hand the verifier to the front channel). */
export function isS256Challenge(challenge: unknown, method: unknown): challenge is string {
  return method === 'S256' && typeof challenge === 'string' && CHALLENGE.test(challenge);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Whether `verifier` is well formed and hashes to `challenge` (compared in constant time). */
export function verifierMatches(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
