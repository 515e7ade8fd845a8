import { jest } from '@jest/globals';
import { UpstreamTenantSessions } from './upstream-sessions.js';

const open = () => ({ url: 'http://127.0.0.1:1/mcp', reconnect: false as const });

describe('UpstreamTenantSessions (one upstream session per calling tenant)', () => {
  afterEach(() => jest.useRealTimers());

  it('gives each tenant its own client and the same one on every call', async () => {
    const sessions = new UpstreamTenantSessions(open);
    const acme = sessions.clientFor('acme');
    expect(sessions.clientFor('acme')).toBe(acme);
    expect(sessions.clientFor('globex')).not.toBe(acme);
    await sessions.close();
    expect(acme.state).toBe('closed');
  });

  it('closes the least recently used session to open one more than max', async () => {
    const sessions = new UpstreamTenantSessions(open, 2);
    const acme = sessions.clientFor('acme');
    sessions.clientFor('globex');
    sessions.clientFor('acme'); // acme used last: globex is the oldest now
    sessions.clientFor('initech');
    expect(sessions.tenants).toEqual(['acme', 'initech']);
    expect(sessions.clientFor('acme')).toBe(acme);
    await sessions.close();
  });

  it('closes a session unused for idleMs', async () => {
    jest.useFakeTimers();
    const sessions = new UpstreamTenantSessions(open, 10, 1_000);
    const acme = sessions.clientFor('acme');
    jest.advanceTimersByTime(600);
    sessions.clientFor('globex');
    jest.advanceTimersByTime(1_500); // the sweep runs every min(idleMs, 60 s): at 2 000 both are older than 1 000
    expect(sessions.tenants).toEqual([]);
    expect(acme.state).toBe('closed');
    sessions.clientFor('globex');
    expect(sessions.tenants).toEqual(['globex']);
    await sessions.close();
  });

  it('hands a forwarding session the latest caller token', async () => {
    let read: (() => string | undefined) | undefined;
    const sessions = new UpstreamTenantSessions((_tenant, session) => {
      read = session.authorization;
      return open();
    });
    sessions.clientFor('acme', 'Bearer one');
    expect(read!()).toBe('Bearer one');
    sessions.clientFor('acme', 'Bearer two');
    expect(read!()).toBe('Bearer two');
    await sessions.close();
  });
});
