import 'reflect-metadata';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { eventually } from '../kit/eventually.js';
import { startWeatherApp, type RunningApp } from '../kit/apps.js';
import { send, type HttpAnswer } from '../kit/http.js';

const PARTS = ['mcp.store', 'mcp.bus', 'mcp.jobs'];

const health = (app: RunningApp): Promise<HttpAnswer> => send(`${app.base}/health`, { method: 'GET' });

describe('health: the weather server serves GET /health (McpHealthIndicator under @nestjs/terminus)', () => {
  it('in memory: 200 {"status":"ok"} with the store, bus and job queue up', async () => {
    const app = await startWeatherApp();
    try {
      const answer = await health(app);
      expect(answer.status).toBe(200);
      expect(answer.json.status).toBe('ok');
      for (const part of PARTS) expect(answer.json.info[part]).toEqual({ status: 'up' });
      expect(answer.json.error).toEqual({});
    } finally {
      await app.close();
    }
  });

  describe('with Redis', () => {
    let redis: RedisServerHandle;
    let app: RunningApp;

    beforeAll(async () => {
      redis = await startRedisServer();
      app = await startWeatherApp({ env: { REDIS_URL: redis.url } });
    });
    afterAll(async () => {
      await app?.close();
      await redis?.stop();
    });

    it('200 while Redis answers, 503 naming the store while it is down, 200 again once it is back', async () => {
      const up = await health(app);
      expect(up.status).toBe(200);
      expect(up.json.status).toBe('ok');
      for (const part of PARTS) expect(up.json.info[part].status).toBe('up');

      const port = redis.port;
      await redis.stop();
      let down: HttpAnswer | undefined;
      await eventually(
        async () => {
          down = await health(app);
          return down.status === 503;
        },
        5_000,
        'GET /health to answer 503',
      );
      expect(down!.json.status).toBe('error');
      expect(down!.json.error['mcp.store']).toEqual({ status: 'down', message: expect.any(String) });
      // The bus and the job queue live on the same Redis: they are down too, each named.
      expect(down!.json.error['mcp.bus'].status).toBe('down');
      expect(down!.json.error['mcp.jobs'].status).toBe('down');
      // The reason, never the Redis address.
      expect(down!.text).not.toContain(String(port));

      redis = await startRedisServer({ port });
      await eventually(async () => (await health(app)).status === 200, 10_000, 'GET /health to answer 200 again');
      const back = await health(app);
      expect(back.json.status).toBe('ok');
      for (const part of PARTS) expect(back.json.info[part].status).toBe('up');
    }, 30_000);
  });
});
