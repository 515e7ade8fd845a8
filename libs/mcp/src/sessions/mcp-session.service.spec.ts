import { McpMemoryStore } from '../stores/memory.store.js';
import type { McpKeyValueStore } from '../stores/key-value.store.js';
import { McpTenantQuotas } from '../stores/tenant-quotas.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { McpSessionService } from './mcp-session.service.js';

const IDLE_TTL_MS = 1_000;
const ALICE: McpPrincipal = { subject: 'alice', tenant: 'acme', scopes: [], claims: {} };
const MALLORY: McpPrincipal = { subject: 'mallory', tenant: 'acme', scopes: [], claims: {} };

/** A memory store on a clock the test moves, with every call it receives recorded by method name. */
function countedStore(): { store: McpKeyValueStore; calls: string[]; advance: (ms: number) => void } {
  let now = 1_000_000;
  const inner = new McpMemoryStore(100_000, 60_000, () => now);
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const member = Reflect.get(target, name, receiver) as unknown;
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (member as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls, advance: (ms) => (now += ms) };
}

function sessionService(store: McpKeyValueStore, maxSessionsPerTenant = 10): McpSessionService {
  const options = {
    sessions: { idleTtlMs: IDLE_TTL_MS },
    limits: { maxSessionsPerTenant, maxStoredKeysPerTenant: 1_000 },
    idempotency: { maxKeysPerTenant: 1_000 },
  } as unknown as McpResolvedOptions;
  return new McpSessionService(store, options, new McpTenantQuotas(store, options));
}

const SESSION_INPUT = { transport: 'streamable-http' as const, protocolVersion: '2025-11-25', clientCapabilities: {}, principal: ALICE };

describe('McpSessionService', () => {
  it('serves a request on a session with two store calls: the read and one touch (no rewrite, no separate quota call)', async () => {
    const { store, calls } = countedStore();
    const sessions = sessionService(store);
    const created = await sessions.create(SESSION_INPUT);
    calls.length = 0;
    expect(await sessions.find(created!.id, ALICE)).toEqual(created);
    expect(calls).toEqual(['get', 'touch']);
  });

  it('keeps a session in use alive past its idle TTL, and its place in the tenant quota with it', async () => {
    const { store, advance } = countedStore();
    const sessions = sessionService(store, 1);
    const created = await sessions.create(SESSION_INPUT);
    for (let step = 0; step < 3; step++) {
      advance(IDLE_TTL_MS * 0.6);
      expect(await sessions.find(created!.id, ALICE)).toMatchObject({ id: created!.id });
    }
    // 1.8 idle TTLs after creation: still counted, so the quota of one refuses a second session.
    expect(await sessions.create(SESSION_INPUT)).toBeUndefined();
    advance(IDLE_TTL_MS + 1);
    expect(await sessions.find(created!.id, ALICE)).toBeUndefined();
    expect(await sessions.create(SESSION_INPUT)).toMatchObject({ tenant: 'acme' });
  });

  it("does not refresh someone else's session", async () => {
    const { store, calls, advance } = countedStore();
    const sessions = sessionService(store);
    const created = await sessions.create(SESSION_INPUT);
    advance(IDLE_TTL_MS * 0.6);
    calls.length = 0;
    expect(await sessions.find(created!.id, MALLORY)).toBeUndefined();
    expect(calls).toEqual(['get']);
    advance(IDLE_TTL_MS * 0.6);
    expect(await sessions.find(created!.id, ALICE)).toBeUndefined();
  });
});
