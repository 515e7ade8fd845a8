import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { McpArgs, McpContext, McpModule, McpTool, type McpToolContext } from '@nest-mcp/core';
import { startRedisServer, type RedisServerHandle } from '../../libs/mcp/src/stores/testing/redis-server.harness.js';
import { eventually } from '../../libs/mcp/src/stores/testing/eventually.js';
import { MCP_JOB_QUEUE } from '../../libs/mcp/src/jobs/job-queue.interface.js';
import { McpJobExecutor } from '../../libs/mcp/src/jobs/mcp-job.executor.js';
import { callTool, pollUntil } from './scaling-support.js';

class SlowDto {
  @IsString()
  label: string;
}

@Injectable()
class SlowTools {
  @McpTool({ description: 'Waits a long time (or until aborted).', job: { estimatedSeconds: 30 }, timeoutMs: 60_000 })
  async slowJob(@McpArgs() args: SlowDto, @McpContext() context: McpToolContext): Promise<{ label: string }> {
    await sleep(30_000, undefined, { signal: context.signal });
    return { label: args.label };
  }
}

/** A fixture instance whose stalled jobs are failed at once (maxStalledCount 0) and detected within ~1.5 s. */
async function startInstance(redisUrl: string): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({ name: 'stalls', version: '1.0.0', redis: { url: redisUrl }, jobs: { lockDurationMs: 1_000, stalledIntervalMs: 500, maxStalledCount: 0 } }),
    ],
    providers: [SlowTools],
  }).compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: false, forceCloseConnections: true });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  return { app, url: `http://127.0.0.1:${port}/mcp` };
}

describe('a job whose worker disappears and may not be retried', () => {
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

  const running = (instance: { app: INestApplication }) => (instance.app.get(McpJobExecutor) as unknown as { running: Map<string, unknown> }).running;

  it('ends as a retryable UNAVAILABLE error instead of staying pending', async () => {
    const started = await callTool(a.url, 'slow_job', { label: 'x' });
    const jobId = started.envelope.data.job_id as string;
    await eventually(() => running(a).has(jobId) || running(b).has(jobId), 10_000, 'the job started');
    const runner = running(a).has(jobId) ? a : b;
    const other = runner === a ? b : a;

    // The runner's worker goes away without finishing (as a process that froze would): its lock is not renewed.
    const worker = (runner.app.get(MCP_JOB_QUEUE) as unknown as { worker: { close(force: boolean): Promise<void> } }).worker;
    await worker.close(true);

    const final = await pollUntil(() => callTool(other.url, 'get_job_status', { job_id: jobId }), (status) => status.envelope?.status !== 'pending', 15_000, 200);
    expect(final.envelope).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });

    // The orphaned handler still runs in this test process: stop it, and its late outcome does not overwrite the error.
    runner.app.get(McpJobExecutor).abort(jobId);
    await eventually(() => !running(runner).has(jobId), 5_000, 'the orphan stopped');
    expect((await callTool(other.url, 'get_job_status', { job_id: jobId })).envelope).toEqual(final.envelope);
  }, 30_000);
});
