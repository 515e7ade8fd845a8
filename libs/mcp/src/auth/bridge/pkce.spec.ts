import { isS256Challenge, s256, verifierMatches } from './pkce.js';

describe('PKCE rules', () => {
  const verifier = 'a'.repeat(43) + '-._~';
  const challenge = s256(verifier);

  it('accepts S256 only, with a well-formed challenge', () => {
    expect(isS256Challenge(challenge, 'S256')).toBe(true);
    expect(isS256Challenge(challenge, 'plain')).toBe(false);
    expect(isS256Challenge(challenge, undefined)).toBe(false);
    expect(isS256Challenge('short', 'S256')).toBe(false);
  });

  it('matches the right verifier only', () => {
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier}x`, challenge)).toBe(false);
    expect(verifierMatches(challenge, challenge)).toBe(false);
    expect(verifierMatches('tooshort', s256('tooshort'))).toBe(false);
    expect(verifierMatches(undefined, challenge)).toBe(false);
  });
});
