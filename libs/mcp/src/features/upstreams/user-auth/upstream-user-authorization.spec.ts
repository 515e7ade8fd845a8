import { McpMemoryStore } from '../../../stores/memory.store.js';
import type { McpKeyValueStore } from '../../../stores/key-value.store.js';
import { UpstreamUserAuthorization } from './upstream-user-authorization.js';

/** A store that keeps what it is given, to look at it (the memory store beneath). */
function recordingStore(): McpKeyValueStore & { written: unknown[] } {
  const inner = new McpMemoryStore();
  const written: unknown[] = [];
  return Object.assign(Object.create(inner) as McpKeyValueStore, {
    written,
    set: (key: string, value: unknown, ttlMs: number) => {
      written.push(value);
      return inner.set(key, value, ttlMs);
    },
  });
}

const OPTIONS = {
  // Nothing listens there: a flow that gets past its ticket fails reaching the authorization server.
  issuer: 'http://127.0.0.1:1',
  clientId: 'gateway',
  clientSecret: 'secret',
  publicUrl: 'https://gateway.example.com/',
  encryptionKey: 'k'.repeat(32),
  confirmUser: 'same-subject' as const,
  resource: 'https://notes.example.com/mcp',
};
const ALICE = { tenant: 'acme', subject: 'alice' };

describe('UpstreamUserAuthorization', () => {
  it('hands out a link at the public URL whose ticket is sealed in the store, naming neither the tenant nor the user', async () => {
    const store = recordingStore();
    const users = new UpstreamUserAuthorization('notes', OPTIONS, store);
    const link = new URL(await users.link(ALICE));
    expect(`${link.origin}${link.pathname}`).toBe('https://gateway.example.com/mcp-upstream-auth/notes/start');
    expect(link.searchParams.get('ticket')).toMatch(/^[\w-]{43}$/);
    expect(users.redirectUri).toBe('https://gateway.example.com/mcp-upstream-auth/notes/callback');
    expect(JSON.stringify(store.written)).not.toMatch(/acme|alice/);
    expect(await users.authorization(ALICE)).toBeUndefined();
  });

  it('takes a ticket once: of two opens at the same moment one goes on, the other is refused', async () => {
    const users = new UpstreamUserAuthorization('notes', OPTIONS, new McpMemoryStore());
    const ticket = new URL(await users.link(ALICE)).searchParams.get('ticket');
    const outcomes = await Promise.allSettled([users.start(ticket), users.start(ticket)]);
    // The one that took it goes on to the authorization server (unreachable here); the other answers 400.
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'went on')).sort()).toEqual([
      { status: 400, page: expect.stringContaining('used already or has expired') },
      'went on',
    ]);
    expect(await users.start('not-a-ticket')).toMatchObject({ status: 400 });
    expect(await users.start(null)).toMatchObject({ status: 400 });
  });

  it('refuses a callback whose state it did not hand out, and disconnecting nobody says so', async () => {
    const users = new UpstreamUserAuthorization('notes', OPTIONS, new McpMemoryStore());
    const url = new URL('https://gateway.example.com/mcp-upstream-auth/notes/callback?code=c&state=forged&iss=http://127.0.0.1:1');
    expect(await users.callback(url)).toMatchObject({ status: 400, page: expect.stringContaining('unknown, used already or expired') });
    expect(await users.disconnect(ALICE)).toBe(false);
  });
});
