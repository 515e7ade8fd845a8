import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule, McpResource, McpResourceNotifier } from '@nest-mcp/core';
import { mcpPost, openSession, request } from '../fixtures/mcp-http.js';
import { SseReader } from '../fixtures/sse.js';
import { startRedisServer, type RedisServerHandle } from '../../libs/mcp/src/stores/testing/redis-server.harness.js';
import { eventually } from '../../libs/mcp/src/stores/testing/eventually.js';
import { pubsubChannels } from './scaling-support.js';

const WATCHED = 'test://watched';

@Injectable()
class WatchedResource {
  @McpResource({ uri: WATCHED, name: 'watched', description: 'A resource clients subscribe to', mimeType: 'text/plain' })
  read() {
    return 'v1';
  }
}

async function startInstance(redisUrl: string): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'watch', version: '1.0.0', redis: { url: redisUrl } })],
    providers: [WatchedResource],
  }).compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: false, forceCloseConnections: true });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  return { app, url: `http://127.0.0.1:${port}/mcp` };
}

describe('resource notifications across instances', () => {
  let redis: RedisServerHandle;
  let a: { app: INestApplication; url: string };
  let b: { app: INestApplication; url: string };

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
    const headers = { sessionId, protocolVersion: '2025-11-25' };
    expect((await mcpPost(a.url, request(2, 'resources/subscribe', { uri: WATCHED }), headers)).json).toMatchObject({ result: {} });

    const controller = new AbortController();
    const response = await fetch(b.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' }, signal: controller.signal });
    const reader = new SseReader(response);
    try {
      await eventually(async () => (await pubsubChannels(redis.url, 'mcp:route:*')).includes(`mcp:route:session-stream:${sessionId}`), 5_000, 'GET stream route held');
      // B holds no subscription of its own; A's is reached through the bus, and A's delivery through B's route.
      expect(b.app.get(McpResourceNotifier).resourceUpdated(WATCHED)).toBe(0);
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
