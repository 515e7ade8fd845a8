import 'reflect-metadata';
import type { Redis } from 'ioredis';
import { eventually } from '../kit/eventually.js';
import { MCP_BUS } from '../../libs/mcp/src/core/message-bus.interface.js';
import { onInstance, openSseSession, postToSseSession, pubsubChannels, instancesOnOneRedis } from './scaling-support.js';
import { type RunningApp } from '../kit/apps.js';
import { rpc } from '../kit/http.js';

/**
 * A 2024-11-05 POST /messages that reaches B for a stream A holds is only accepted (202) if A received it on the bus.
 * Just after a Redis restart A may still be resubscribing: the message would be lost, so B answers 503 + Retry-After.
 */
describe('2024-11-05 HTTP+SSE: a forwarded POST nobody received', () => {
  const shared = instancesOnOneRedis({ count: 2 });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));
  const base = (app: RunningApp) => app.url.replace(/\/mcp$/, '');

  /**
   * A's subscribing connection, reached past the bus's privacy: UNSUBSCRIBE on it leaves A holding the stream with no
   * subscription on Redis, which is what a Redis restart leaves until ioredis resubscribes.
   */
  function subscriberOf(app: RunningApp): Redis {
    return (app.app.get(MCP_BUS) as unknown as { subscriber: { client: Redis } }).subscriber.client;
  }

  it('answers 503 with Retry-After while the holder is not subscribed, and 202 (answered on the stream) once it is again', async () => {
    const stream = await openSseSession(base(a));
    const channel = `mcp:route:legacy-sse:${stream.sessionId}`;
    try {
      const onB = onInstance(stream.endpoint, base(b));
      await subscriberOf(a).unsubscribe(channel);
      await eventually(async () => !(await pubsubChannels(shared.redis.url, 'mcp:route:*')).includes(channel), 5_000, 'route unsubscribed');

      const refused = await postToSseSession(onB, rpc(1, 'ping'));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { message: expect.stringContaining('not listening') },
      });

      await subscriberOf(a).subscribe(channel);
      const accepted = await postToSseSession(onB, rpc(2, 'ping'));
      expect(accepted.status).toBe(202);
      expect(await stream.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    } finally {
      await stream.close();
    }
  });
});
