import { jest } from '@jest/globals';
import type { McpClient } from '../../client/mcp-client.js';
import { upstreamSessionKey, UpstreamSessions } from './upstream-sessions.js';

const open = () => ({ url: 'http://127.0.0.1:1/mcp', reconnect: false as const });

/** The client a call of `tenant` runs on (`run` hands it over at once). */
function clientFor(sessions: UpstreamSessions, tenant: string): McpClient {
  let client: McpClient | undefined;
  void sessions.run(tenant, tenant, {}, async (given) => void (client = given));
  return client!;
}

describe('UpstreamSessions (one upstream session per calling tenant, or per caller)', () => {
  afterEach(() => jest.useRealTimers());

  it('gives each tenant its own client and the same one on every call', async () => {
    const sessions = new UpstreamSessions(open);
    const acme = clientFor(sessions, 'acme');
    expect(clientFor(sessions, 'acme')).toBe(acme);
    expect(clientFor(sessions, 'globex')).not.toBe(acme);
    await sessions.close();
    expect(acme.state).toBe('closed');
  });

  it('closes the least recently used session to open one more than max', async () => {
    const sessions = new UpstreamSessions(open, 2);
    const acme = clientFor(sessions, 'acme');
    clientFor(sessions, 'globex');
    clientFor(sessions, 'acme'); // acme used last: globex is the oldest now
    clientFor(sessions, 'initech');
    expect(sessions.tenants).toEqual(['acme', 'initech']);
    expect(clientFor(sessions, 'acme')).toBe(acme);
    await sessions.close();
  });

  it('closes a session unused for idleMs', async () => {
    jest.useFakeTimers();
    const sessions = new UpstreamSessions(open, 10, 1_000);
    const acme = clientFor(sessions, 'acme');
    jest.advanceTimersByTime(600);
    clientFor(sessions, 'globex');
    jest.advanceTimersByTime(1_500); // the sweep runs every min(idleMs, 60 s): at 2 000 both are older than 1 000
    expect(sessions.tenants).toEqual([]);
    expect(acme.state).toBe('closed');
    clientFor(sessions, 'globex');
    expect(sessions.tenants).toEqual(['globex']);
    await sessions.close();
  });

  it('hands each call its own headers, and a request outside any call the latest', async () => {
    let read: ((call: Readonly<Record<string, string>> | undefined) => Readonly<Record<string, string>> | undefined) | undefined;
    const sessions = new UpstreamSessions((_tenant, callHeaders) => {
      read = callHeaders;
      return open();
    });
    // The client hands the session's header function the `headers` option of the call a request belongs to.
    const seen = await Promise.all(
      ['Bearer one', 'Bearer two'].map((authorization) =>
        sessions.run('acme', 'acme', { authorization }, async (_client, headers) => {
          await new Promise((resolve) => setTimeout(resolve, 10)); // both calls are in flight: each reads its own
          return read!(headers)?.authorization;
        }),
      ),
    );
    expect(seen).toEqual(['Bearer one', 'Bearer two']);
    expect(read!(undefined)).toEqual({ authorization: 'Bearer two' });
    expect(await sessions.run('acme', 'acme', {}, async (_client, headers) => read!(headers))).toEqual({}); // a call without one sends none
    await sessions.close();
  });

  it('keys a session by tenant, or by the caller when the credential is the caller’s', () => {
    const alice = { subject: 'alice', tenant: 'acme', scopes: [], claims: {} };
    expect(upstreamSessionKey({ tenant: 'acme', principal: alice }, false, 'Bearer a')).toBe('acme');
    expect(upstreamSessionKey({ tenant: 'acme', principal: alice }, true, 'Bearer a')).toBe('acme\nprincipal:alice');
    expect(upstreamSessionKey({ tenant: 'default' }, true)).toBe('default\nanonymous');
    const one = upstreamSessionKey({ tenant: 'default' }, true, 'Bearer a');
    expect(one).not.toContain('Bearer');
    expect(upstreamSessionKey({ tenant: 'default' }, true, 'Bearer b')).not.toBe(one);
  });
});
