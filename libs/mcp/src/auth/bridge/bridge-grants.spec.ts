import { McpMemoryStore } from '../../stores/memory.store.js';
import { BridgeGrants } from './bridge-grants.js';

describe('BridgeGrants (memory store)', () => {
  const user = { sub: 'alice', tenant: 'acme' };
  let store: McpMemoryStore;
  let grants: BridgeGrants;
  beforeEach(() => {
    store = new McpMemoryStore(1_000, 60_000);
    grants = new BridgeGrants(store, { clientTtlMs: 60_000, grantTtlMs: 60_000, maxGrantsPerTenant: 2 });
  });
  afterEach(() => store.close());

  it('redeems a code once, and keeps only its hash', async () => {
    const record = { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'x'.repeat(43), scope: 'a', user };
    const code = await grants.issueCode(record);
    expect(await grants.redeemCode(`${code}x`)).toBeUndefined();
    expect(await grants.redeemCode(code)).toEqual(record);
    expect(await grants.redeemCode(code)).toBeUndefined();
  });

  it('rotates the refresh token; the replaced one used again revokes the grant', async () => {
    const { grant, refreshToken: first } = (await grants.createGrant('c', 'a', user))!;
    expect(await grants.rotate(first, 'other-client')).toBe('invalid');
    const rotated = await grants.rotate(first, 'c');
    if (typeof rotated === 'string') throw new Error(rotated);
    expect(rotated.refreshToken).not.toBe(first);
    expect(await grants.rotate(`${grant.id}.forged`, 'c')).toBe('invalid');
    expect(await grants.grant(grant.id)).toBeDefined();

    expect(await grants.rotate(first, 'c')).toBe('reused');
    expect(await grants.grant(grant.id)).toBeUndefined();
    expect(await grants.rotate(rotated.refreshToken, 'c')).toBe('invalid');
  });

  it('bounds the live grants of a tenant; a revoked one frees its place', async () => {
    const one = (await grants.createGrant('c', 'a', user))!;
    expect(await grants.createGrant('c', 'a', user)).toBeDefined();
    expect(await grants.createGrant('c', 'a', user)).toBeUndefined();
    expect(await grants.createGrant('c', 'a', { sub: 'bob', tenant: 'other' })).toBeDefined();
    await grants.revoke(one.grant);
    expect(await grants.createGrant('c', 'a', user)).toBeDefined();
  });

  it('counts requests per minute', async () => {
    expect(await grants.withinRate('register', 2)).toBe(true);
    expect(await grants.withinRate('register', 2)).toBe(true);
    expect(await grants.withinRate('register', 2)).toBe(false);
  });
});
