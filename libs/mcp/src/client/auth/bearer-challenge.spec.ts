import { parseBearerChallenge } from './bearer-challenge.js';

describe('parseBearerChallenge', () => {
  it('reads error, scope and resource_metadata, quoted or not, in any order and case', () => {
    expect(
      parseBearerChallenge(
        'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource"',
      ),
    ).toEqual({ error: 'insufficient_scope', scope: 'a b', resourceMetadata: 'https://x/.well-known/oauth-protected-resource' });
    expect(parseBearerChallenge('bearer Scope=read, error=invalid_token')).toEqual({
      error: 'invalid_token',
      scope: 'read',
      resourceMetadata: undefined,
    });
  });

  it('keeps to the Bearer challenge among others, and is undefined without one', () => {
    expect(parseBearerChallenge('Basic realm="r", Bearer scope="s" , DPoP algs="ES256", error="x"')).toMatchObject({
      scope: 's',
      error: undefined,
    });
    expect(parseBearerChallenge('Basic realm="r"')).toBeUndefined();
    expect(parseBearerChallenge(undefined)).toBeUndefined();
  });

  it('unescapes quoted pairs', () => {
    expect(parseBearerChallenge('Bearer scope="a \\"b\\""')?.scope).toBe('a "b"');
  });
});
