/**
 * `streams.maxEventBytesPerStream` as a client meets it: a Streamable HTTP session whose tool streams large progress
 * notifications, then GETs with `Last-Event-ID` over a real socket. The stream keeps only its newest events that fit
 * in the byte bound; an id it dropped is unknown (404, as for an id the count bound dropped); an event too large to
 * keep on its own is still delivered live, and a resume from it continues after it. On the memory store and on Redis.
 */
import { Injectable } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsInt, Max, Min } from 'class-validator';
import { McpArgs, McpContext, McpTool, type McpModuleForRootOptions, type McpToolContext } from '@nest-mcp/core';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { openSession, postStream, rpc, sleep } from '../kit/http.js';
import { type SseItem, SseReader } from '../kit/sse.js';

/** The byte bound of the suite: three 2 800-character progress notifications and the call's result fit, four do not. */
const MAX_EVENT_BYTES = 10_000;
const LARGE = 2_800;

class ProgressSizesDto {
  @IsArray()
  @ArrayMaxSize(10)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(100_000, { each: true })
  sizes: number[];
}

@Injectable()
class BulkyTools {
  @McpTool({
    name: 'bulky_progress',
    description: 'Reports one progress notification per entry of `sizes`, its message that many characters long.',
  })
  bulkyProgress(@McpArgs() args: ProgressSizesDto, @McpContext() context: McpToolContext): { reported: number } {
    args.sizes.forEach((size, index) => context.reportProgress(index + 1, args.sizes.length, String(index + 1).padEnd(size, '.')));
    return { reported: args.sizes.length };
  }
}

const events = (items: SseItem[]) => items.filter((item) => item.kind === 'event');
const progressOf = (item: SseItem) => (JSON.parse(item.data!) as { params: { progress: number } }).params.progress;

const targets: Array<[string, () => Promise<{ options: Partial<McpModuleForRootOptions>; stop: () => Promise<void> }>]> = [
  ['the memory store', async () => ({ options: {}, stop: async () => undefined })],
  [
    'Redis',
    async () => {
      const server: RedisServerHandle = await startRedisServer();
      return { options: { redis: { url: server.url } }, stop: () => server.stop() };
    },
  ],
];

describe.each(targets)('streams.maxEventBytesPerStream on %s (Streamable HTTP, Last-Event-ID)', (_name, start) => {
  let app: RunningApp;
  let stop: () => Promise<void>;
  let sessionId: string;

  beforeAll(async () => {
    const target = await start();
    stop = target.stop;
    app = await listenMcp(
      { name: 'replay', version: '1.0.0', http: { streams: { maxEventBytesPerStream: MAX_EVENT_BYTES } }, ...target.options },
      [BulkyTools],
    );
    ({ sessionId } = await openSession(app.url));
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await stop?.();
  });

  /** Calls bulky_progress on a POST stream read to its end: the priming event, the progress notifications, the result. */
  async function call(id: string, sizes: number[]): Promise<SseItem[]> {
    const params = { name: 'bulky_progress', arguments: { sizes }, _meta: { progressToken: id } };
    const response = await postStream(app.url, rpc(id, 'tools/call', params), { 'Mcp-Session-Id': sessionId });
    expect(response.status).toBe(200);
    const received = events(await new SseReader(response).readToEnd());
    await sleep(100); // the response is written before it is stored: let the store catch up
    return received;
  }

  function resume(lastEventId: string): Promise<Response> {
    return fetch(app.url, { headers: { 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream', 'Last-Event-ID': lastEventId } });
  }

  async function expectUnknown(lastEventId: string): Promise<void> {
    const answer = await resume(lastEventId);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: expect.any(Number), message: 'Unknown Last-Event-ID for this session' },
    });
  }

  it('replays only the newest events that fit in the bound; an id it dropped is unknown (404)', async () => {
    const received = await call('large', Array(6).fill(LARGE));
    // Priming, six progress notifications, the result: all delivered live, whole.
    expect(received).toHaveLength(8);
    expect(received.slice(1, 7).map((item) => JSON.parse(item.data!).params.message.length)).toEqual(Array(6).fill(LARGE));
    expect(received.slice(1, 7).map(progressOf)).toEqual([1, 2, 3, 4, 5, 6]);

    const fromFourth = await resume(received[4].id!);
    expect(fromFourth.status).toBe(200);
    const replayed = events(await new SseReader(fromFourth).readToEnd());
    expect(replayed.map((item) => item.id)).toEqual(received.slice(5).map((item) => item.id));
    expect(replayed.map((item) => JSON.parse(item.data!))).toEqual(received.slice(5).map((item) => JSON.parse(item.data!)));

    // The third notification no longer fits beside the later ones: resuming from it would leave a gap.
    for (const dropped of [received[3], received[1], received[0]]) await expectUnknown(dropped.id!);
  });

  it('delivers an event larger than the bound live; a resume from it continues after it, one from before it is unknown', async () => {
    const received = await call('huge', [100, MAX_EVENT_BYTES * 3, 100]);
    expect(received).toHaveLength(5);
    expect(JSON.parse(received[2].data!).params.message).toHaveLength(MAX_EVENT_BYTES * 3);

    const fromHuge = await resume(received[2].id!);
    expect(fromHuge.status).toBe(200);
    const replayed = events(await new SseReader(fromHuge).readToEnd());
    expect(replayed.map((item) => item.id)).toEqual([received[3].id, received[4].id]);
    expect(progressOf(replayed[0])).toBe(3);
    expect(JSON.parse(replayed[1].data!)).toMatchObject({ jsonrpc: '2.0', id: 'huge', result: { isError: false } });

    // Replaying from before it would have to skip it: the client is told its position is lost instead.
    await expectUnknown(received[1].id!);
  });
});
