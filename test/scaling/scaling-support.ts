import { Redis } from 'ioredis';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { type RunningApp, SpawnedWeatherServer, startWeatherApp } from '../kit/apps.js';
import { ensureBuilt } from '../kit/build.js';
import { callTool, envelopeOf, type HeaderOverrides, post } from '../kit/http.js';
import { type SseItem, SseReader } from '../kit/sse.js';

/** The weather server's AppModule in this process, sharing `redisUrl` (REDIS_URL only while it boots). */
export function startWeatherInstance(redisUrl: string): Promise<RunningApp> {
  return startWeatherApp({ env: { REDIS_URL: redisUrl } });
}

/** Instances of one server sharing one Redis, no sticky sessions; `close()` stops each one still running. */
export interface Instances<T> {
  readonly apps: T[];
  close(): Promise<void>;
}

/**
 * `count` in-process apps on `redis`, by default the weather server ({@link startWeatherInstance}); `start` gets
 * the instance's index too (0 for A). They boot one after another, since a boot reads process.env while it runs;
 * when one fails, those already up are closed.
 */
export async function startInstances(
  redis: { readonly url: string },
  count: number,
  start: (redisUrl: string, index: number) => Promise<RunningApp> = startWeatherInstance,
): Promise<Instances<RunningApp>> {
  const apps: RunningApp[] = [];
  const close = async () => {
    for (const app of apps) await app.close();
  };
  try {
    for (let index = 0; index < count; index++) apps.push(await start(redis.url, index));
  } catch (error) {
    await close();
    throw error;
  }
  return { apps, close };
}

/**
 * `count` built weather servers (`dist/`, see ensureBuilt) as child processes on `redis`, started together, with
 * `env` on top of REDIS_URL. `close()` kills them (SIGKILL); one a test already stopped is passed over.
 */
export async function spawnInstances(
  redis: { readonly url: string },
  count: number,
  env: Record<string, string> = {},
): Promise<Instances<SpawnedWeatherServer>> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => SpawnedWeatherServer.start({ REDIS_URL: redis.url, ...env })),
  );
  const apps = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const close = async () => {
    for (const server of apps) await server.stop('SIGKILL').catch(() => undefined);
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  return { apps, close };
}

/** What {@link instancesOnOneRedis} gives a describe block's tests once its beforeAll has run. */
export interface SharedRedisInstances {
  readonly redis: RedisServerHandle;
  /** The instances started before the tests (`count`), in order: `[a, b]`. */
  readonly apps: RunningApp[];
  /** Starts `count` more, as built servers in child processes ({@link spawnInstances}); killed after the block. */
  spawn(count: number, env?: Record<string, string>): Promise<SpawnedWeatherServer[]>;
}

/**
 * Registers, in the calling describe block, a beforeAll that starts a redis-server and `count` in-process instances
 * on it (`start`, the weather server by default), and an afterAll that stops every instance, then Redis. `built`:
 * build `dist/` first, for tests that {@link SharedRedisInstances.spawn} built servers.
 *
 * @example
 * const shared = instancesOnOneRedis({ count: 2 });
 * let a: RunningApp;
 * let b: RunningApp;
 * beforeAll(() => ([a, b] = shared.apps));
 */
export function instancesOnOneRedis(
  options: { count?: number; start?: (redisUrl: string, index: number) => Promise<RunningApp>; built?: boolean } = {},
): SharedRedisInstances {
  let redis: RedisServerHandle | undefined;
  let inProcess: Instances<RunningApp> | undefined;
  const spawned: Instances<SpawnedWeatherServer>[] = [];
  const shared: SharedRedisInstances = {
    get redis() {
      if (!redis) throw new Error('instancesOnOneRedis: Redis starts in beforeAll; read it inside a test or a later hook');
      return redis;
    },
    get apps() {
      return inProcess?.apps ?? [];
    },
    async spawn(count, env) {
      const instances = await spawnInstances(shared.redis, count, env);
      spawned.push(instances);
      return instances.apps;
    },
  };
  beforeAll(
    async () => {
      if (options.built) await ensureBuilt();
      redis = await startRedisServer();
      inProcess = await startInstances(redis, options.count ?? 0, options.start);
    },
    options.built ? 200_000 : 60_000,
  );
  afterAll(async () => {
    for (const instances of spawned) await instances.close();
    await inProcess?.close();
    await redis?.stop();
  });
  return shared;
}

/**
 * The one of `among` whose worker holds BullMQ job `jobId` now (BullMQ records the worker's name, host:pid, on the
 * job it takes), or undefined while none of them does.
 */
export async function jobHolder(redisUrl: string, jobId: string, among: SpawnedWeatherServer[]): Promise<SpawnedWeatherServer | undefined> {
  const worker = await bullJobField(redisUrl, jobId, 'pb');
  return among.find((server) => worker?.endsWith(`:${server.pid}`));
}

/** Waits until a worker takes job `jobId` and answers which of `among` it is; fails when it is none of them. */
export async function jobRunner(redisUrl: string, jobId: string, among: SpawnedWeatherServer[]): Promise<SpawnedWeatherServer> {
  const worker = await pollUntil(
    () => bullJobField(redisUrl, jobId, 'pb'),
    (name) => name !== null,
    10_000,
    50,
  );
  const runner = among.find((server) => worker!.endsWith(`:${server.pid}`));
  if (!runner) throw new Error(`job ${jobId} taken by ${worker}, not by ${among.map((server) => server.pid).join(' or ')}`);
  return runner;
}

/** A stateless `tools/call`: the JSON-RPC answer and, for a result, its envelope. */
export async function invokeTool(url: string, name: string, args: Record<string, unknown> = {}, headers: HeaderOverrides = {}) {
  const response = await post(url, callTool(1, name, args), headers);
  const answer = response.messages.find((message) => message.id === 1);
  return { status: response.status, answer, envelope: answer?.result ? envelopeOf(answer.result) : undefined };
}

/** Polls `read` until `done` holds for its value; fails with the last value after `timeoutMs`. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** An HTTP+SSE (2024-11-05) stream (GET /sse) and the messages URL its `endpoint` event gave. */
export interface SseSessionStream {
  reader: SseReader;
  /** The absolute messages URL, `…/messages?sessionId=…`. */
  endpoint: string;
  sessionId: string;
  /** The next `message` event's JSON-RPC message. */
  nextMessage(timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export async function openSseSession(baseUrl: string): Promise<SseSessionStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/sse`, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
  if (response.status !== 200) throw new Error(`GET /sse answered ${response.status}`);
  const reader = new SseReader(response);
  const first = await reader.nextEvent();
  if (first?.event !== 'endpoint' || !first.data) throw new Error(`expected the endpoint event, got ${JSON.stringify(first)}`);
  const endpoint = first.data;
  const sessionId = new URL(endpoint).searchParams.get('sessionId')!;
  return {
    reader,
    endpoint,
    sessionId,
    async nextMessage(timeoutMs = 5_000) {
      for (;;) {
        const item: SseItem | undefined = await reader.nextEvent(timeoutMs);
        if (!item) throw new Error(`the stream ended; received: ${JSON.stringify(reader.raw)}`);
        if (item.event === 'message' && item.data) return JSON.parse(item.data);
      }
    },
    async close() {
      await reader.cancel();
      controller.abort();
    },
  };
}

/** Sends one JSON-RPC message to a 2024-11-05 HTTP+SSE messages URL. */
export function postToSseSession(endpoint: string, message: unknown): Promise<Response> {
  return fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(message) });
}

/** The same messages URL on another instance (what a load balancer does when it picks another backend). */
export function onInstance(endpoint: string, baseUrl: string): string {
  const url = new URL(endpoint);
  return `${baseUrl}${url.pathname}${url.search}`;
}

/** Channels subscribed on the Redis server, read with PUBSUB CHANNELS (to prove subscriptions end with streams). */
export async function pubsubChannels(redisUrl: string, pattern: string): Promise<string[]> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return ((await client.call('PUBSUB', 'CHANNELS', pattern)) as string[]).sort();
  } finally {
    client.disconnect();
  }
}

/** One field of a BullMQ job hash (`pb`: the worker that took it), read from Redis. */
export async function bullJobField(redisUrl: string, jobId: string, field: string): Promise<string | null> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return await client.hget(`mcp:bull:jobs:${jobId}`, field);
  } finally {
    client.disconnect();
  }
}
