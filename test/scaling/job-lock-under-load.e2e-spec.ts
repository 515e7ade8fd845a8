import 'reflect-metadata';
import { Redis } from 'ioredis';
import { Injectable } from '@nestjs/common';
import { McpContext, McpTool, type McpToolContext } from '@nest-mcp/core';
import { instancesOnOneRedis, invokeTool, pollUntil } from './scaling-support.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';

/** Blocks the event loop for `ms` (CPU-bound work done on the main thread, which is what starves lock renewal). */
function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* busy */
  }
}

@Injectable()
class BusyTools {
  runs = 0;

  @McpTool({ name: 'busy_job', description: 'Blocks the event loop in 2 s bursts', job: true, timeoutMs: 60_000 })
  async busyJob(@McpContext() context: McpToolContext): Promise<{ bursts: number }> {
    this.runs++;
    for (let burst = 1; burst <= 3; burst++) {
      blockFor(2_000);
      context.reportProgress(burst, 3);
      // One turn of the event loop between bursts: timers (BullMQ's lock renewal) run here.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { bursts: 3 };
  }
}

/**
 * The default lock (6 s, renewed every 3 s) holds while a handler blocks the event loop for up to half of it: a
 * second instance on the same Redis never takes the job over, and the job completes once.
 */
describe('the job lock under event-loop load, with the default job options', () => {
  const shared = instancesOnOneRedis({
    count: 2,
    start: (redisUrl) => listenMcp({ name: 'busy', version: '1.0.0', redis: { url: redisUrl }, jobs: { concurrency: 1 } }, [BusyTools]),
  });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));

  it('keeps a job whose handler blocks the loop 2 s at a time: no stall, one run, one completion', async () => {
    const started = await invokeTool(a.url, 'busy_job');
    const jobId = started.envelope.data.job_id as string;
    const final = await pollUntil(
      () => invokeTool(b.url, 'get_job_status', { job_id: jobId }),
      (status) => status.envelope?.status !== 'pending',
      30_000,
      250,
    );
    expect(final.envelope).toMatchObject({ status: 'success', data: { bursts: 3 } });
    expect(a.app.get(BusyTools).runs + b.app.get(BusyTools).runs).toBe(1);

    const client = new Redis(shared.redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await client.connect();
    const events = (await client.xrange('mcp:bull:jobs:events', '-', '+'))
      .map(([, fields]) => fields)
      .filter((fields) => fields.includes(jobId))
      .map((fields) => fields[fields.indexOf('event') + 1]);
    client.disconnect();
    expect(events).not.toContain('stalled');
    expect(events.filter((event) => event === 'completed')).toHaveLength(1);
  }, 40_000);
});
