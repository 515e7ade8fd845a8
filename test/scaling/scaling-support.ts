import { Redis } from 'ioredis';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { callTool, envelopeOf, type HeaderOverrides, post } from '../kit/http.js';
import { type SseItem, SseReader } from '../kit/sse.js';

/** The weather server's AppModule in this process, sharing `redisUrl` (REDIS_URL only while it boots). */
export function startWeatherInstance(redisUrl: string): Promise<RunningApp> {
  return startWeatherApp({ env: { REDIS_URL: redisUrl } });
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
