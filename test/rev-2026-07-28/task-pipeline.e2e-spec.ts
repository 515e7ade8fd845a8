import 'reflect-metadata';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  McpArgs,
  McpContent,
  McpContext,
  McpModule,
  McpProperty,
  McpResult,
  McpTool,
  type McpModuleOptions,
  type McpToolContext,
} from '@nest-mcp/core';
import { call2026 } from './support/requests.js';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { eventually } from '../kit/eventually.js';
import { listen, type RunningApp } from '../kit/apps.js';
import { callTool, initializeRequest, post, rpc, sessionHeaders } from '../kit/http.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

class WorkArgsDto {
  @McpProperty({ description: 'Milliseconds of work' })
  @IsOptional()
  @IsString()
  ms?: string;

  @McpProperty({ description: 'Makes a retry the same request' })
  @IsOptional()
  @IsString()
  request_key?: string;
}

/** A job tool that counts its runs on this app instance (each app gets its own instance of the class). */
@Injectable()
class CountingTools {
  runs = 0;

  @McpTool({
    name: 'counted_work',
    description: 'Counts a run, works a while, answers',
    job: true,
    idempotencyKey: 'request_key',
    timeoutMs: 60_000,
  })
  async countedWork(@McpArgs() args: WorkArgsDto, @McpContext() context: McpToolContext) {
    this.runs++;
    await sleep(Number(args.ms ?? 0), undefined, { signal: context.signal }).catch(() => undefined);
    return McpResult.raw({ content: [McpContent.text(`run ${this.runs}`)] });
  }
}

function appModule(options: Partial<McpModuleOptions>): DynamicModule {
  @Module({ imports: [McpModule.forRoot({ name: 'task-pipeline', version: '1.0.0', ...options })], providers: [CountingTools] })
  class TaskPipelineModule {}
  return { module: TaskPipelineModule };
}

let sequence = 0;
const taskCall = async (url: string, args: Record<string, unknown> = {}) =>
  (await call2026(url, ++sequence, 'tools/call', { name: 'counted_work', arguments: args }, { capabilities: TASKS })).json.result;
const taskGet = async (url: string, taskId: string) =>
  (await call2026(url, ++sequence, 'tasks/get', { taskId }, { capabilities: TASKS })).json.result;
const settled = async (url: string, taskId: string) => {
  let task: any;
  await eventually(
    async () => ['completed', 'failed', 'cancelled'].includes((task = await taskGet(url, taskId)).status),
    10_000,
    'the task ended',
  );
  return task;
};

/**
 * A 2026-07-28 task call runs through the same call pipeline as a 2025-11-25 call: the tenant limiter, the
 * idempotency key, the job slots, and the job queue (BullMQ across instances with `redis`).
 */
describe('2026-07-28 task calls pass the call pipeline', () => {
  const apps: RunningApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  const boot = async (options: Partial<McpModuleOptions>) => {
    const app = await listen([appModule(options)]);
    apps.push(app);
    return app;
  };

  it('is rate limited by limits.rateLimit (RATE_LIMITED), as a 2025 call is', async () => {
    const { url } = await boot({ limits: { rateLimit: { limit: 2, windowMs: 60_000 } } });
    expect((await taskCall(url)).resultType).toBe('task');
    expect((await taskCall(url)).resultType).toBe('task');
    const refused = await taskCall(url);
    expect(refused).toMatchObject({
      resultType: 'complete',
      isError: true,
      structuredContent: { status: 'error', error: { code: 'RATE_LIMITED', retryable: true } },
    });
    expect(refused).not.toHaveProperty('taskId');
  });

  it('is idempotent: the same idempotency key gives one job and the same task', async () => {
    const { app, url } = await boot({});
    const first = await taskCall(url, { ms: '50', request_key: 'k-1' });
    const again = await taskCall(url, { ms: '50', request_key: 'k-1' });
    expect(first.resultType).toBe('task');
    expect(again.taskId).toBe(first.taskId);
    await settled(url, first.taskId);
    expect(app.get(CountingTools).runs).toBe(1);
    const other = await taskCall(url, { ms: '0', request_key: 'k-2' });
    expect(other.taskId).not.toBe(first.taskId);
  });

  it('counts against jobs.maxQueuedPerTenant (QUOTA_EXCEEDED), as 2025 jobs do', async () => {
    const { url } = await boot({ jobs: { maxQueuedPerTenant: 1 } });
    const running = await taskCall(url, { ms: '2000' });
    expect(running.resultType).toBe('task');
    const refused = await taskCall(url, { ms: '0' });
    expect(refused).toMatchObject({
      resultType: 'complete',
      isError: true,
      structuredContent: { error: { code: 'QUOTA_EXCEEDED', retryable: true } },
    });
    // A 2025 job call is refused by the same count.
    const call2025 = await post(url, callTool(1, 'counted_work', { ms: '0' }));
    expect(call2025.json.result.structuredContent.error.code).toBe('QUOTA_EXCEEDED');
    await call2026(url, ++sequence, 'tasks/cancel', { taskId: running.taskId }, { capabilities: TASKS });
  });

  describe('with redis and two instances', () => {
    let redis: RedisServerHandle;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it("tasks accepted by instance A run on the shared queue: instance B's worker takes some", async () => {
      const a = await boot({ redis: { url: redis.url }, jobs: { concurrency: 1 } });
      const b = await boot({ redis: { url: redis.url }, jobs: { concurrency: 1 } });
      const created = await Promise.all([1, 2, 3, 4].map(() => taskCall(a.url, { ms: '400' })));
      expect(created.map((task) => task.resultType)).toEqual(['task', 'task', 'task', 'task']);
      for (const task of created) expect(await settled(b.url, task.taskId)).toMatchObject({ status: 'completed' });
      const [onA, onB] = [a.app.get(CountingTools).runs, b.app.get(CountingTools).runs];
      expect(onA + onB).toBe(4);
      expect(onB).toBeGreaterThan(0);
    });
  });
});

/**
 * The tasks feature reads the tool registry at bootstrap, after every explorer ran: the order of McpModule's
 * providers (explorer before or after the task handlers) does not matter.
 */
describe('tasks are served whatever the order of the providers', () => {
  let app: RunningApp | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('with the providers of McpModule listed in reverse, job tools, the tasks capability and tasks/* are there', async () => {
    const definition = McpModule.forRoot({ name: 'reversed', version: '1.0.0' });
    class ReversedMcpModule {}
    for (const key of ['imports', 'providers', 'controllers', 'exports']) {
      const value = Reflect.getMetadata(key, McpModule) as unknown[] | undefined;
      Reflect.defineMetadata(key, key === 'providers' ? [...(value ?? [])].reverse() : (value ?? []), ReversedMcpModule);
    }
    const reversed: DynamicModule = { ...definition, module: ReversedMcpModule, providers: [...(definition.providers ?? [])].reverse() };
    @Module({ imports: [reversed], providers: [CountingTools] })
    class ReversedApp {}
    app = await listen([ReversedApp]);

    const init = await post(app.url, initializeRequest(1, '2025-11-25'));
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(init.json.result.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const headers = sessionHeaders(sessionId, '2025-11-25');
    const tools = (await post(app.url, rpc(2, 'tools/list'), headers)).json.result.tools.map((tool: { name: string }) => tool.name);
    expect(tools).toEqual(['counted_work', 'get_job_status', 'cancel_job']);
    const task = (await post(app.url, rpc(3, 'tools/call', { name: 'counted_work', arguments: {}, task: {} }), headers)).json.result.task;
    expect(task).toMatchObject({ taskId: expect.stringMatching(/^job_/), status: 'working' });
    expect(
      (await post(app.url, rpc(4, 'tasks/list'), headers)).json.result.tasks.map((listed: { taskId: string }) => listed.taskId),
    ).toContain(task.taskId);
    await eventually(
      async () => (await post(app!.url, rpc(5, 'tasks/get', { taskId: task.taskId }), headers)).json.result.status === 'completed',
      5_000,
      'the task completed',
    );
  });
});
