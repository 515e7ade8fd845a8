import { confirmsUser } from './user-confirmation.js';

const ALICE = { tenant: 'acme', subject: 'alice' };

describe('confirmsUser', () => {
  it("'same-subject' accepts only the ID token's sub equal to the user's subject", async () => {
    expect(await confirmsUser('same-subject', ALICE, { sub: 'alice' })).toBe(true);
    expect(await confirmsUser('same-subject', ALICE, { sub: 'bob' })).toBe(false);
    expect(await confirmsUser('same-subject', ALICE, { sub: ['alice'] })).toBe(false);
    expect(await confirmsUser('same-subject', ALICE, {})).toBe(false);
  });

  it('a function decides with the user and a copy of the claims; only true accepts, and a throw refuses', async () => {
    const claims = { sub: 'alice@notes', email: 'alice@example.com' };
    const seen: unknown[] = [];
    const mapping = (user: { tenant?: string; subject: string }, given: Record<string, unknown>) => {
      seen.push([user, given]);
      given.sub = 'tampered';
      return Promise.resolve(given.email === `${user.subject}@example.com`);
    };
    expect(await confirmsUser(mapping, ALICE, claims)).toBe(true);
    expect(seen).toEqual([[ALICE, { sub: 'tampered', email: 'alice@example.com' }]]);
    expect(claims.sub).toBe('alice@notes');
    expect(await confirmsUser(() => 'yes' as unknown as boolean, ALICE, claims)).toBe(false);
    expect(
      await confirmsUser(
        () => {
          throw new Error('directory down');
        },
        ALICE,
        claims,
      ),
    ).toBe(false);
  });
});
