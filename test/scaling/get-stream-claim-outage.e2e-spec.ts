import 'reflect-metadata';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../kit/eventually.js';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { McpInstanceLease } from '../../libs/mcp/src/sessions/mcp-instance-lease.service.js';
import { MCP_STORE, type McpKeyValueStore } from '../../libs/mcp/src/stores/key-value.store.js';
import { McpStreamHub } from '../../libs/mcp/src/transports/streams/stream-hub.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { openSession, sessionHeaders } from '../kit/http.js';
import { startInstances, type Instances } from './scaling-support.js';

/** The GET-stream claim is a lease of three keep-alive intervals: 6 s here, against 30 min of sessions.idleTtlMs. */
const KEEP_ALIVE_MS = 2_000;
/** Instance leases outlive the outage: A stays alive for B, so only the claim's own expiry can let B in. */
const LEASE = { ttlMs: 60_000, renewMs: 1_000 };

function startInstance(redisUrl: string): Promise<RunningApp> {
  return listenMcp({
    name: 'claims',
    version: '1.0.0',
    redis: { url: redisUrl, instanceLease: LEASE },
    http: { streams: { keepAliveMs: KEEP_ALIVE_MS } },
  });
}

/**
 * A session's GET stream on A closes while Redis is down, so A cannot release its claim; Redis comes back with
 * the claim (append-only file). The session's next GET on B, a live instance, is refused (409) only until the
 * claim's short lease lapses, not for sessions.idleTtlMs.
 */
describe('a GET-stream claim whose release failed in a Redis outage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'claim-outage-'));
  let redis: RedisServerHandle;
  let instances: Instances<RunningApp> | undefined;
  const open: AbortController[] = [];

  beforeAll(async () => {
    redis = await startRedisServer({ appendOnly: { dir } });
    instances = await startInstances(redis, 2, startInstance);
  });

  afterAll(async () => {
    for (const controller of open) controller.abort();
    await instances?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function getStream(app: RunningApp, sessionId: string): { response: Promise<Response>; controller: AbortController } {
    const controller = new AbortController();
    open.push(controller);
    const response = fetch(app.url, {
      headers: { Accept: 'text/event-stream', ...sessionHeaders(sessionId, '2025-11-25') } as Record<string, string>,
      signal: controller.signal,
    });
    return { response, controller };
  }

  async function statusOfGet(app: RunningApp, sessionId: string): Promise<number> {
    const { response, controller } = getStream(app, sessionId);
    const { status } = await response;
    controller.abort();
    return status;
  }

  const storeAnswers = (app: RunningApp) =>
    app.app.get<McpKeyValueStore>(MCP_STORE).ping!().then(
      () => true,
      () => false,
    );

  it("B's GET is refused only for the claim's short lease after A's release failed", async () => {
    const [a, b] = instances!.apps;
    const { sessionId } = await openSession(a.url);
    const stream = getStream(a, sessionId);
    expect((await stream.response).status).toBe(200);
    expect(await statusOfGet(b, sessionId)).toBe(409);

    // The stream closes while Redis is down: A's release of the claim fails.
    await redis.kill('SIGKILL');
    await eventually(async () => !(await storeAnswers(a)), 5_000, "A's store sees the outage");
    stream.controller.abort();
    await eventually(() => a.app.get(McpStreamHub).standaloneOf(sessionId) === undefined, 5_000, 'the stream closed on A');

    redis = await startRedisServer({ port: redis.port, appendOnly: { dir } });
    await eventually(async () => (await storeAnswers(a)) && (await storeAnswers(b)), 10_000, 'both instances reconnected');
    const client = new Redis(redis.url);
    try {
      // The claim is still there, naming A: the release did fail.
      expect(JSON.parse((await client.get(`mcp:get-stream:${sessionId}`))!)).toEqual({ instance: a.app.get(McpInstanceLease).id });
    } finally {
      client.disconnect();
    }
    expect(await statusOfGet(b, sessionId)).toBe(409);

    // Within a few leases, never near the 30 minutes of sessions.idleTtlMs the claim lived before.
    await eventually(async () => (await statusOfGet(b, sessionId)) === 200, 4 * 3 * KEEP_ALIVE_MS, 'GET on B served');
  }, 60_000);
});
