import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { McpResource } from '../../index.js';
import { bootMcp, closeMcpApps, dispatch } from '../../../../../test/kit/boot-mcp.js';
import { startRedisServer, type RedisServerHandle } from '../../../../../test/kit/redis-server.harness.js';
import { eventually } from '../../../../../test/kit/eventually.js';
import { MCP_ERROR_CODES } from '../../core/errors/error-codes.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';

const WATCHED = 'test://watched';
const IN_SESSION: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25', sessionId: 'session-1' };

@Injectable()
class WatchedResource {
  @McpResource({ uri: WATCHED, name: 'watched', mimeType: 'text/plain' })
  read() {
    return 'v1';
  }
}

describe('resources/subscribe and resources/unsubscribe with the redis option', () => {
  let redis: RedisServerHandle | undefined;

  afterEach(async () => {
    await closeMcpApps();
    await redis?.stop();
    redis = undefined;
  });

  it('answer the retryable UNAVAILABLE error while Redis is down, and work again once it is back', async () => {
    redis = await startRedisServer();
    const port = redis.port;
    const app = await bootMcp([WatchedResource], { options: { redis: { url: redis.url } } });
    expect(await dispatch(app, 'resources/subscribe', { uri: WATCHED }, { context: IN_SESSION })).toMatchObject({ result: {} });

    await redis.stop();
    for (const method of ['resources/subscribe', 'resources/unsubscribe']) {
      const answer = await dispatch(app, method, { uri: WATCHED }, { context: IN_SESSION });
      expect(answer).toMatchObject({
        error: {
          code: MCP_ERROR_CODES.UNAVAILABLE.jsonRpcCode,
          data: { status: 'error', error: { code: 'UNAVAILABLE', retryable: true } },
        },
      });
      expect(JSON.stringify(answer)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|\bat\s/);
    }

    redis = await startRedisServer({ port });
    await eventually(
      async () => 'result' in ((await dispatch(app, 'resources/subscribe', { uri: WATCHED }, { context: IN_SESSION })) ?? {}),
      10_000,
      'subscribe works again once Redis is back',
    );
  });
});
