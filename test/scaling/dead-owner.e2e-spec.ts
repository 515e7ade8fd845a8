import { instancesOnOneRedis, onInstance, openSseSession, pollUntil, postToSseSession } from './scaling-support.js';
import { openSession, rpc, sessionHeaders } from '../kit/http.js';

/** The default lease (`instanceLease.ttlMs`): the longest a dead instance's sessions still look alive. */
const LEASE_TTL_MS = 5_000;

/**
 * The built weather server as two processes on one Redis; A is killed with SIGKILL (no shutdown hook runs, its
 * lease is simply no longer renewed). What A held must read as gone on B within the lease TTL plus a second.
 */
describe('an instance killed while it holds sessions', () => {
  const shared = instancesOnOneRedis({ built: true });
  const open: AbortController[] = [];

  afterAll(() => {
    for (const controller of open) controller.abort();
  });

  function getStream(url: string, sessionId: string): Promise<Response> {
    const controller = new AbortController();
    open.push(controller);
    return fetch(url, {
      headers: { Accept: 'text/event-stream', ...sessionHeaders(sessionId, '2025-11-25') } as Record<string, string>,
      signal: controller.signal,
    });
  }

  it('kill -9 of A: B answers 404 for A’s 2024-11-05 session and takes the session’s GET stream, within the lease TTL + 1 s', async () => {
    const [a, b] = await shared.spawn(2);

    const legacy = await openSseSession(a.baseUrl);
    const onB = onInstance(legacy.endpoint, b.baseUrl);
    expect((await postToSseSession(onB, rpc(1, 'ping'))).status).toBe(202);
    expect(await legacy.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });

    const { sessionId } = await openSession(a.url);
    expect((await getStream(a.url, sessionId)).status).toBe(200);
    const refused = await getStream(b.url, sessionId);
    expect(refused.status).toBe(409);
    await refused.body?.cancel();

    expect(await a.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    const killed = Date.now();
    // Until A's lease expires B still forwards (202); then the session is gone, and stays gone.
    await pollUntil(
      async () => (await postToSseSession(onB, rpc(2, 'ping'))).status,
      (status) => status === 404,
      LEASE_TTL_MS + 1_000,
    );
    const legacyGoneAfter = Date.now() - killed;
    expect((await postToSseSession(onB, rpc(3, 'ping'))).status).toBe(404);

    const taken = await pollUntil(
      async () => {
        const response = await getStream(b.url, sessionId);
        if (response.status !== 200) await response.body?.cancel();
        return response.status;
      },
      (status) => status === 200,
      LEASE_TTL_MS + 1_000,
    );
    expect(taken).toBe(200);
    const getTakenAfter = Date.now() - killed;
    console.log(`dead owner: legacy session 404 after ${legacyGoneAfter} ms, GET stream taken over after ${getTakenAfter} ms`);
    expect(Math.max(legacyGoneAfter, getTakenAfter)).toBeLessThanOrEqual(LEASE_TTL_MS + 1_000);
    await legacy.close();
  }, 60_000);
});
