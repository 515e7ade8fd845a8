import { mappedScopes, userScopes } from './user-scopes.js';

describe('userScopes', () => {
  const mapping = { fromClaim: 'groups', map: { admins: ['weather:read', 'admin'], staff: ['weather:read'] } };

  it('grants nothing without a mapping, whatever the claims', async () => {
    expect(await userScopes(undefined, { sub: 'u', groups: ['admins'], scope: 'admin' })).toEqual([]);
  });

  it('maps each value of the claim (an array or a string), each scope once; an unmapped value grants nothing', async () => {
    expect(await userScopes(mapping, { groups: ['staff', 'admins', 'unknown'] })).toEqual(['weather:read', 'admin']);
    expect(await userScopes(mapping, { groups: 'staff' })).toEqual(['weather:read']);
    expect(await userScopes(mapping, { groups: ['constructor', '__proto__', 'toString'] })).toEqual([]);
    expect(await userScopes(mapping, { roles: ['admins'] })).toEqual([]);
  });

  it("keeps a function's scope tokens only", async () => {
    expect(await userScopes((claims) => (claims.sub === 'u' ? ['a', 'a', 'b c', ''] : []), { sub: 'u' })).toEqual(['a']);
    expect(await userScopes(async () => ['x'], {})).toEqual(['x']);
  });

  it('lists what a mapping can grant', () => {
    expect(mappedScopes(mapping)).toEqual(['weather:read', 'admin']);
    expect(mappedScopes(() => ['x'])).toEqual([]);
  });
});
