import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { McpArgs, McpContext, McpResource, McpTool, type McpToolContext } from '@nest-mcp/core';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { openSession, post, postStream, rpc, sessionHeaders } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';

const WATCHED = 'test://watched';

class CountDto {
  @IsInt()
  @Min(1)
  @Max(1_000)
  count: number;
}

/** Reports `count` progress notifications, one per timer tick: a stream that keeps sending while clients resume it. */
@Injectable()
class ChattyTool {
  @McpTool({ name: 'chatty', description: 'Reports progress `count` times, a millisecond apart' })
  async chatty(@McpArgs() args: CountDto, @McpContext() context: McpToolContext): Promise<{ reported: number }> {
    for (let index = 1; index <= args.count; index++) {
      context.reportProgress(index, args.count);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return { reported: args.count };
  }
}

@Injectable()
class WatchedResource {
  @McpResource({ uri: WATCHED, name: 'watched', description: 'A resource that changes all the time', mimeType: 'text/plain' })
  read() {
    return 'v';
  }
}

/** Resuming a session's GET stream (`Last-Event-ID`) while it keeps sending, and with ids a client made up (Redis). */
describe('GET stream replay under appends and forged Last-Event-IDs (redis)', () => {
  let redis: RedisServerHandle;
  let app: RunningApp;
  let sessionId: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    app = await listenMcp({ name: 'replay-races', version: '1.0.0', redis: { url: redis.url } }, [WatchedResource, ChattyTool]);
    ({ sessionId } = await openSession(app.url));
    const answer = await post(app.url, rpc(1, 'resources/subscribe', { uri: WATCHED }), sessionHeaders(sessionId, '2025-11-25'));
    expect(answer.json).toMatchObject({ result: {} });
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  const get = (headers: Record<string, string> = {}) =>
    fetch(app.url, {
      headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25', Accept: 'text/event-stream', ...headers },
    });

  it('a POST stream resumed again and again while its tool keeps reporting misses no event and repeats none', async () => {
    const params = { name: 'chatty', arguments: { count: 300 }, _meta: { progressToken: 'chatty' } };
    const response = await postStream(app.url, rpc('chatty', 'tools/call', params), sessionHeaders(sessionId, '2025-11-25'));
    expect(response.status).toBe(200);
    const first = new SseReader(response);
    const priming = await first.nextEvent().catch(() => undefined);
    const start = priming ?? (await first.next());
    await first.cancel(); // the connection drops; the stream lives on while the tool runs, its events stored
    let lastId = start!.id!;
    const stream = lastId.slice(0, lastId.lastIndexOf('.'));
    const sequence = (id: string) => Number(id.slice(id.lastIndexOf('.') + 1));
    let progress = 0;
    for (let resume = 0; ; resume++) {
      const reader = new SseReader(await get({ 'Last-Event-ID': lastId }));
      let result = false;
      for (let read = 0; read < 10; read++) {
        const event = await reader.nextEvent();
        if (!event) break;
        expect(event.id?.startsWith(`${stream}.`)).toBe(true);
        // The next id, always: the replay, then the live stream, without a gap at the hand-over.
        expect([resume, sequence(event.id!)]).toEqual([resume, sequence(lastId) + 1]);
        lastId = event.id!;
        const message = JSON.parse(event.data!) as { params?: { progress: number }; result?: unknown };
        if (message.result) result = true;
        else expect(message.params!.progress).toBe(++progress);
      }
      await reader.cancel();
      if (result) break;
    }
    expect(progress).toBe(300);
  });

  it.each([
    ['garbage', 'not-an-event-id'],
    ['a bare dot', '.'],
    ['an unknown stream', 'AAAA_bbbb.1'],
    ['a key-path climb', '../../sessions/x.1'],
    ['Redis glob and hash-tag characters', '*{tag}?[a].0'],
    ['a negative sequence', 'stream.-1'],
    ['a very long id', `${'x'.repeat(8_000)}.1`],
  ])('a forged Last-Event-ID (%s) is unknown: 404, nothing replayed, no stack', async (_case, lastEventId) => {
    const answer = await get({ 'Last-Event-ID': lastEventId });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: expect.any(Number), message: 'Unknown Last-Event-ID for this session' },
    });
  });
});
