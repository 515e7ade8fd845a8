import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { REPO_ROOT, WEATHER_MAIN } from '../fixtures/build.js';
import { envelopeOf, mcpPost, request, type PostOptions } from '../fixtures/mcp-http.js';
import { SseReader, type SseItem } from '../fixtures/sse.js';
import { startWeatherApp, type WeatherApp } from '../support/weather-app.js';
import { freePort } from '../../libs/mcp/src/stores/testing/redis-server.harness.js';

/** Sets `vars` in `process.env` while `run` runs, then puts back what was there. */
export async function withEnv<T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  Object.assign(process.env, vars);
  try {
    return await run();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** The weather server's AppModule in this process, sharing `redisUrl` (REDIS_URL only while it boots). */
export function startWeatherInstance(redisUrl: string): Promise<WeatherApp> {
  return withEnv({ REDIS_URL: redisUrl }, () => startWeatherApp());
}

/** A stateless `tools/call`: the JSON-RPC answer and, for a result, its envelope. */
export async function callTool(url: string, name: string, args: Record<string, unknown> = {}, options: PostOptions = {}) {
  const response = await mcpPost(url, request(1, 'tools/call', { name, arguments: args }), options);
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

/** A legacy HTTP+SSE stream (GET /sse) and the messages URL its `endpoint` event gave. */
export interface LegacyStream {
  reader: SseReader;
  /** The absolute messages URL, `…/messages?sessionId=…`. */
  endpoint: string;
  sessionId: string;
  /** The next `message` event's JSON-RPC message. */
  nextMessage(timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export async function openLegacyStream(baseUrl: string): Promise<LegacyStream> {
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

/** Sends one JSON-RPC message to a legacy messages URL. */
export function postLegacy(endpoint: string, message: unknown): Promise<Response> {
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

/** The built weather server (`node dist/apps/weather-server/main.js`) as a child process on a free port. */
export class SpawnedWeatherServer {
  stderr = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-20_000)));
    child.stdout?.resume();
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    running.add(child);
    void this.exited.then(() => running.delete(child));
  }

  static async start(env: Record<string, string>): Promise<SpawnedWeatherServer> {
    const port = await freePort();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MCP_') && key !== 'REDIS_URL'));
    const child = spawn(process.execPath, [WEATHER_MAIN], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...clean, ...env, PORT: String(port), HOST: '127.0.0.1' } });
    const server = new SpawnedWeatherServer(child, port);
    await server.waitForStderr(/MCP endpoint on/, 20_000);
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `${this.baseUrl}/mcp`;
  }

  async waitForStderr(pattern: RegExp, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.stderr)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`weather-server exited:\n${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`weather-server did not print ${pattern} within ${timeoutMs} ms:\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Signals the process (by its PID) and waits for it to exit, up to `timeoutMs`. */
  async stop(signal: NodeJS.Signals, timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) process.kill(this.pid, signal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`pid ${this.pid} did not exit within ${timeoutMs} ms after ${signal}:\n${this.stderr}`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Children still running when the test process exits are killed, even if a test failed before stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
