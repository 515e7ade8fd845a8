import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Cluster } from 'ioredis';
import { McpConfigurationError, McpModule, McpStoreUnavailableError, type McpModuleOptions } from '@nest-mcp/core';
import { startRedisCluster, type RedisClusterHandle } from '../kit/redis-cluster.harness.js';
import { freePort } from '../kit/redis-server.harness.js';
import { MCP_JOB_QUEUE } from '../../libs/mcp/src/jobs/job-queue.interface.js';
import { McpBullJobQueue } from '../../libs/mcp/src/jobs/bullmq-job.queue.js';
import { invokeTool, pollUntil } from './scaling-support.js';
import { initApp, type RunningApp, startWeatherApp, withEnv } from '../kit/apps.js';
import { ensureBuilt, WEATHER_MAIN } from '../kit/build.js';
import { StdioServerProcess } from '../kit/stdio.js';

/**
 * `redis: { cluster: { nodes } }` against a real 3-master Redis Cluster on loopback ports: the boot checks, and two
 * weather-server instances (`REDIS_CLUSTER_NODES`) sharing sessions, jobs, idempotency keys and the sample's alerts through it.
 */
describe('McpModule option "redis.cluster" (a 3-master Redis Cluster)', () => {
  let cluster: RedisClusterHandle;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  describe('boot checks', () => {
    const boot = (options: Partial<McpModuleOptions>) => initApp([McpModule.forRoot({ name: 'cluster', version: '1.0.0', ...options })]);

    it('refuses both url and cluster, and neither, naming the option', async () => {
      const both = boot({ redis: { url: 'redis://127.0.0.1:6379', cluster: { nodes: cluster.nodes } } });
      await expect(both).rejects.toThrow(McpConfigurationError);
      await expect(both).rejects.toThrow(/"redis" needs exactly one of url \(one server\) and cluster/);
      await expect(boot({ redis: { keyPrefix: 'x:' } })).rejects.toThrow(/"redis" needs exactly one of url/);
    });

    it.each([
      [{ nodes: [] }, /"redis\.cluster\.nodes" must be a non-empty array/],
      [{ nodes: [{ host: '127.0.0.1', port: 0 }] }, /"redis\.cluster\.nodes\[0\]" must be \{ host: string, port: 1-65535 \}/],
      [{ nodes: [{ host: '', port: 7000 }] }, /"redis\.cluster\.nodes\[0\]"/],
      [{ nodes: [{ host: '127.0.0.1', port: 7000, tls: true }] }, /"redis\.cluster\.nodes\[0\]\.tls" is unknown/],
      [{ nodes: [{ host: '127.0.0.1', port: 7000 }], options: 'x' }, /"redis\.cluster\.options" must be an object/],
    ])('refuses cluster %j at boot', async (value, message) => {
      await expect(boot({ redis: { cluster: value as never } })).rejects.toThrow(message);
    });

    it.each([['a{b:'], ['{}:']])('refuses keyPrefix %p, which would hide the tenant hash tags', async (keyPrefix) => {
      await expect(boot({ redis: { cluster: { nodes: cluster.nodes }, keyPrefix } })).rejects.toThrow(
        /"redis\.keyPrefix" must hold no "\{"/,
      );
    });

    it('fails the boot when no startup node answers, naming redis.cluster and the nodes', async () => {
      const port = await freePort();
      const failure = boot({ redis: { cluster: { nodes: [{ host: '127.0.0.1', port }] } } });
      await expect(failure).rejects.toThrow(McpStoreUnavailableError);
      await expect(failure).rejects.toThrow(new RegExp(`"redis\\.cluster".*redis-cluster://127\\.0\\.0\\.1:${port}`));
    });

    it('the weather server refuses REDIS_URL together with REDIS_CLUSTER_NODES, and a malformed node, naming the variables', async () => {
      await expect(
        startWeatherApp({ env: { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: cluster.nodeList } }),
      ).rejects.toThrow(/REDIS_URL and REDIS_CLUSTER_NODES are both set; set only one/);
      await expect(startWeatherApp({ env: { REDIS_CLUSTER_NODES: '127.0.0.1' } })).rejects.toThrow(
        /REDIS_CLUSTER_NODES: "127\.0\.0\.1" is not host:port/,
      );
    });

    it('the built weather server with both variables prints one stderr line and exits 1', async () => {
      await ensureBuilt();
      const child = new StdioServerProcess(WEATHER_MAIN, [], {
        REDIS_URL: 'redis://127.0.0.1:1',
        REDIS_CLUSTER_NODES: cluster.nodeList,
        PORT: '0',
      });
      const exit = await child.waitForExit(20_000);
      expect(exit).toMatchObject({ code: 1, timedOut: false });
      expect(child.stderr.trim().split('\n')).toEqual([
        'weather-server: REDIS_URL and REDIS_CLUSTER_NODES are both set; set only one (REDIS_CLUSTER_NODES for a Redis Cluster).',
      ]);
    }, 200_000);
  });

  describe('two weather-server instances on the cluster (REDIS_CLUSTER_NODES)', () => {
    let a: RunningApp;
    let b: RunningApp;
    let observer: Cluster;

    beforeAll(async () => {
      a = await startWeatherApp({ env: { REDIS_CLUSTER_NODES: cluster.nodeList } });
      b = await startWeatherApp({ env: { REDIS_CLUSTER_NODES: cluster.nodeList } });
      observer = new Cluster(cluster.nodes, { lazyConnect: true });
      await observer.connect();
    });

    afterAll(async () => {
      await a?.close();
      await b?.close();
      observer?.disconnect();
    });

    /** Every key on every master matching `pattern` (SCAN is per node on a cluster). */
    async function keysOnCluster(pattern: string): Promise<string[]> {
      const found: string[] = [];
      for (const node of observer.nodes('master')) found.push(...(await node.keys(pattern)));
      return found.sort();
    }

    /** The ids of the alerts `app` lists for the caller's (default) tenant. */
    async function alertIdsOn(app: RunningApp): Promise<string[]> {
      const listed = await invokeTool(app.url, 'list_weather_alerts', { limit: 200 });
      return (listed.envelope.data.alerts as Array<{ alert_id: string }>).map((alert) => alert.alert_id);
    }

    it('an SDK client whose requests alternate between A and B keeps one session', async () => {
      let turn = 0;
      const alternating: typeof fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        url.port = String([a, b][turn++ % 2].port);
        return fetch(url, init);
      };
      const client = new Client({ name: 'cluster-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(a.url), { fetch: alternating });
      await client.connect(transport);
      try {
        expect(transport.sessionId).toEqual(expect.any(String));
        for (let call = 0; call < 4; call++) {
          const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Tokyo' } });
          expect(result.isError).toBeFalsy();
        }
        expect(turn).toBeGreaterThanOrEqual(6); // initialize, initialized, four calls: both instances served the session
      } finally {
        await client.close();
      }
    });

    it("a job submitted on A runs on B's worker and finishes; its status answers on both", async () => {
      // A takes no job: its BullMQ worker is paused, so only B's worker can run what A accepted.
      const queueOfA = a.app.get(MCP_JOB_QUEUE) as McpBullJobQueue;
      expect(queueOfA).toBeInstanceOf(McpBullJobQueue);
      const workerOfA = (queueOfA as unknown as { worker: { pause(doNotWaitActive?: boolean): Promise<void>; isPaused(): boolean } })
        .worker;
      await workerOfA.pause(true);
      await withEnv({ REPORT_DELAY_MS: '600' }, async () => {
        const started = await invokeTool(a.url, 'generate_climate_report', { city: 'Berlin', years: 2 });
        expect(started.envelope).toMatchObject({ status: 'pending', data: { job_id: expect.stringMatching(/^job_/) } });
        const jobId = started.envelope.data.job_id as string;
        const final = await pollUntil(
          () => invokeTool(a.url, 'get_job_status', { job_id: jobId }),
          (status) => status.envelope?.status !== 'pending',
          15_000,
        );
        expect(final.envelope).toMatchObject({ status: 'success', data: { city: { name: 'Berlin' } } });
        expect((await invokeTool(b.url, 'get_job_status', { job_id: jobId })).envelope).toEqual(final.envelope);
      });
      expect(workerOfA.isPaused()).toBe(true);
      // BullMQ's keys share one hash tag (its scripts touch many at once); none is left under the untagged prefix.
      expect(await keysOnCluster('{mcp:bull}:jobs:*')).not.toHaveLength(0);
      expect(await keysOnCluster('mcp:bull:*')).toEqual([]);
    });

    it('one idempotency key sent to A and B at once runs once: both answer the same alert, listed once on each', async () => {
      const args = { city: 'Madrid', threshold_celsius: 38, priority: 'high', idempotency_key: `cluster-${Date.now()}-once` };
      const [onA, onB] = await Promise.all([
        invokeTool(a.url, 'create_weather_alert', args),
        invokeTool(b.url, 'create_weather_alert', args),
      ]);
      expect(onA.envelope).toMatchObject({ status: 'success', data: { alert_id: expect.any(String) } });
      expect(onB.envelope).toEqual(onA.envelope);
      // The sample's alerts are on the cluster too: both instances list the one alert, once.
      for (const app of [a, b]) expect((await alertIdsOn(app)).filter((id) => id === onA.envelope.data.alert_id)).toHaveLength(1);
      // The per-tenant quota sets carry the tenant as their hash tag.
      expect(await keysOnCluster('mcp:quota:*')).toEqual(expect.arrayContaining([expect.stringMatching(/^mcp:quota:\{default\}:/)]));
    });

    it('an alert created on A is listed on B, and its key retried on B creates no second one; a tenant’s alert keys share a hash tag', async () => {
      const args = { city: 'Harbin', threshold_celsius: -5, priority: 'low', idempotency_key: `cluster-${Date.now()}-shared` };
      const created = await invokeTool(a.url, 'create_weather_alert', args);
      expect(created.envelope).toMatchObject({ status: 'success', data: { alert_id: expect.any(String), city: 'Harbin' } });
      const alertId = created.envelope.data.alert_id as string;
      expect((await alertIdsOn(b)).filter((id) => id === alertId)).toHaveLength(1);
      expect((await invokeTool(b.url, 'create_weather_alert', args)).envelope).toEqual(created.envelope);
      expect((await alertIdsOn(a)).filter((id) => id === alertId)).toHaveLength(1);
      expect(await keysOnCluster('weather:alerts:*')).toEqual(
        expect.arrayContaining(['weather:alerts:{default}:by-id', 'weather:alerts:{default}:positions']),
      );
    });
  });
});
