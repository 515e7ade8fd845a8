import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, type INestApplication } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpArgs, McpContext, McpTool, type McpToolContext } from '@nest-mcp/core';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { eventually } from '../kit/eventually.js';
import { MCP_JOB_QUEUE } from '../../libs/mcp/src/jobs/job-queue.interface.js';
import { McpTaskWorker } from '../../libs/mcp/src/features/tasks/task-worker.js';
import { invokeTool, pollUntil } from './scaling-support.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';

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
function startInstance(redisUrl: string): Promise<RunningApp> {
  return listenMcp(
    {
      name: 'stalls',
      version: '1.0.0',
      redis: { url: redisUrl },
      jobs: { lockDurationMs: 1_000, stalledIntervalMs: 500, maxStalledCount: 0 },
    },
    [SlowTools],
  );
}

describe('a job whose worker disappears and may not be retried', () => {
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

  const running = (instance: { app: INestApplication }) =>
    (instance.app.get(McpTaskWorker) as unknown as { running: Map<string, unknown> }).running;

  it('ends as a retryable UNAVAILABLE error instead of staying pending', async () => {
    const started = await invokeTool(a.url, 'slow_job', { label: 'x' });
    const jobId = started.envelope.data.job_id as string;
    await eventually(() => running(a).has(jobId) || running(b).has(jobId), 10_000, 'the job started');
    const runner = running(a).has(jobId) ? a : b;
    const other = runner === a ? b : a;

    // The runner's worker goes away without finishing (as a process that froze would): its lock is not renewed.
    const worker = (runner.app.get(MCP_JOB_QUEUE) as unknown as { worker: { close(force: boolean): Promise<void> } }).worker;
    await worker.close(true);

    const final = await pollUntil(
      () => invokeTool(other.url, 'get_job_status', { job_id: jobId }),
      (status) => status.envelope?.status !== 'pending',
      15_000,
      200,
    );
    expect(final.envelope).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });

    // The orphaned handler still runs in this test process: stop it, and its late outcome does not overwrite the error.
    runner.app.get(McpTaskWorker).abort(jobId);
    await eventually(() => !running(runner).has(jobId), 5_000, 'the orphan stopped');
    expect((await invokeTool(other.url, 'get_job_status', { job_id: jobId })).envelope).toEqual(final.envelope);
  }, 30_000);
});
