import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceNotifier } from '@nest-mcp/core';
import { startRedisServer, type RedisServerHandle } from '../../libs/mcp/src/testing-kit/redis-server.harness.js';
import { eventually } from '../../libs/mcp/src/testing-kit/eventually.js';
import { pubsubChannels } from './scaling-support.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { openSession, post, rpc, sessionHeaders } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';

const WATCHED = 'test://watched';

@Injectable()
class WatchedResource {
  @McpResource({ uri: WATCHED, name: 'watched', description: 'A resource clients subscribe to', mimeType: 'text/plain' })
  read() {
    return 'v1';
  }
}

function startInstance(redisUrl: string): Promise<RunningApp> {
  return listenMcp({ name: 'watch', version: '1.0.0', redis: { url: redisUrl } }, [WatchedResource]);
}

describe('resource notifications across instances', () => {
  let redis: RedisServerHandle;
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    redis = await startRedisServer();
    a = await startInstance(redis.url);
    b = await startInstance(redis.url);
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await redis?.stop();
  });

  it('subscribed through A, GET stream on B, changed on B: the client gets notifications/resources/updated once', async () => {
    const { sessionId } = await openSession(a.url);
    const headers = sessionHeaders(sessionId, '2025-11-25');
    expect((await post(a.url, rpc(2, 'resources/subscribe', { uri: WATCHED }), headers)).json).toMatchObject({ result: {} });

    const controller = new AbortController();
    const response = await fetch(b.url, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
      signal: controller.signal,
    });
    const reader = new SseReader(response);
    try {
      await eventually(
        async () => (await pubsubChannels(redis.url, 'mcp:route:*')).includes(`mcp:route:session-stream:${sessionId}`),
        5_000,
        'GET stream route held',
      );
      // The subscription is in the store: B, which holds the GET stream, read it when the stream opened and delivers.
      await eventually(() => b.app.get(McpResourceNotifier).resourceUpdated(WATCHED) === 1, 5_000, 'B delivers');
      const received: unknown[] = [];
      while (received.length === 0) {
        const event = await reader.nextEvent();
        if (event?.data) received.push(JSON.parse(event.data));
      }
      expect(received).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: WATCHED } }]);
      // Only once: nothing else arrives.
      await expect(reader.nextEvent(500)).rejects.toThrow(/no SSE item/);
    } finally {
      await reader.cancel();
      controller.abort();
    }
  });
});
