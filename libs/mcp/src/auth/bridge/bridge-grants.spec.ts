import { McpMemoryStore } from '../../stores/memory.store.js';
import { BridgeGrants } from './bridge-grants.js';

describe('BridgeGrants (memory store)', () => {
  const user = { sub: 'alice', tenant: 'acme' };
  let store: McpMemoryStore;
  let grants: BridgeGrants;
  beforeEach(() => {
    store = new McpMemoryStore(1_000, 60_000);
    grants = new BridgeGrants(store, {
      clientTtlMs: 60_000,
      grantTtlMs: 60_000,
      maxGrantsPerTenant: 2,
      pendingClientTtlMs: 200,
      maxPendingClients: 2,
    });
  });
  afterEach(() => store.close());

  it('redeems a code once, and keeps only its hash', async () => {
    const record = { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'x'.repeat(43), scope: 'a', user };
    const code = await grants.issueCode(record);
    expect(await grants.redeemCode(`${code}x`)).toBeUndefined();
    expect((await grants.redeemCode(code))?.record).toEqual(record);
    expect(await grants.redeemCode(code)).toBeUndefined();
  });

  it('a code redeemed again revokes the grant created from it, even one bound after the replay', async () => {
    const record = { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'x'.repeat(43), scope: 'a', user };
    const code = await grants.issueCode(record);
    const first = (await grants.redeemCode(code))!;
    const { grant } = (await grants.createGrant('c', 'a', user))!;
    expect(await first.bind(grant)).toBe(true);
    expect(await grants.redeemCode(code)).toBeUndefined();
    expect(await grants.grant(grant.id)).toBeUndefined();

    const raced = await grants.issueCode(record);
    const winner = (await grants.redeemCode(raced))!;
    expect(await grants.redeemCode(raced)).toBeUndefined();
    const late = (await grants.createGrant('c', 'a', user))!;
    expect(await winner.bind(late.grant)).toBe(false);
    expect(await grants.grant(late.grant.id)).toBeUndefined();
  });

  it('a registration is pending until a sign-in completes: few at once, expiring soon; confirmed, it stays', async () => {
    const client = (id: string) => ({ client_id: id, redirect_uris: ['http://127.0.0.1/cb'], client_id_issued_at: 0 });
    expect(await grants.savePendingClient(client('one'))).toBe(true);
    expect(await grants.savePendingClient(client('two'))).toBe(true);
    expect(await grants.savePendingClient(client('three'))).toBe(false);
    await grants.confirmClient((await grants.client('one'))!);
    expect(await grants.savePendingClient(client('three'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await grants.client('two')).toBeUndefined();
    expect(await grants.client('one')).toEqual(client('one'));
    expect(await grants.savePendingClient(client('four'))).toBe(true);
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
});
