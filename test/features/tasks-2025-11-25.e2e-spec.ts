import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpArgs, McpContent, McpContext, McpModule, McpProperty, McpResult, McpTool, type McpToolContext } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { listen, type RunningApp } from '../kit/apps.js';
import { openSession, post, rpc, sessionHeaders, type HeaderOverrides } from '../kit/http.js';

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

@Injectable()
class WorkTools {
  runs = 0;

  @McpTool({ name: 'work', description: 'Works a while, answers', job: true, idempotencyKey: 'request_key', timeoutMs: 60_000 })
  async work(@McpArgs() args: WorkArgsDto, @McpContext() context: McpToolContext) {
    this.runs++;
    await sleep(Number(args.ms ?? 0), undefined, { signal: context.signal }).catch(() => undefined);
    return McpResult.raw({ content: [McpContent.text(`run ${this.runs}`)] });
  }

  @McpTool({ name: 'echo', description: 'Answers at once' })
  echo() {
    return 'echo';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'tasks-2025', version: '1.0.0' })], providers: [WorkTools] })
class TasksApp {}

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The 2025-11-25 task surface: task-augmented `tools/call` and `tasks/get|list|result|cancel`, per session revision. */
describe('2025-11-25 tasks', () => {
  let app: RunningApp;
  let headers: HeaderOverrides;
  let sequence = 1;
  const ask = async (method: string, params?: Record<string, unknown>, to: HeaderOverrides = headers) =>
    (await post(app.url, rpc(++sequence, method, params), to)).json;
  const taskCall = (name: string, args: Record<string, unknown> = {}, to?: HeaderOverrides) =>
    ask('tools/call', { name, arguments: args, task: { ttl: 60_000 } }, to);

  beforeAll(async () => {
    app = await listen([TasksApp]);
    headers = sessionHeaders((await openSession(app.url, { protocolVersion: '2025-11-25' })).sessionId, '2025-11-25');
  });
  afterAll(() => app.close());

  it('answers a task-augmented call with a CreateTaskResult that tasks/get and tasks/list find', async () => {
    const { result } = await taskCall('work', { ms: '0' });
    expect(Object.keys(result)).toEqual(['task']);
    expect(result.task).toEqual({
      taskId: expect.stringMatching(/^job_/),
      status: 'working',
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttl: expect.any(Number),
      pollInterval: 250,
    });
    const { taskId } = result.task;
    expect((await ask('tasks/list')).result.tasks.map((task: { taskId: string }) => task.taskId)).toContain(taskId);
    await eventually(async () => (await ask('tasks/get', { taskId })).result.status === 'completed', 5_000, 'the task completed');
  });

  it('tasks/result waits for the end and answers what tools/call would have, with the related task', async () => {
    const { taskId } = (await taskCall('work', { ms: '200' })).result.task;
    const { result } = await ask('tasks/result', { taskId });
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^run \d+$/) }]);
    expect(result._meta[RELATED_TASK]).toEqual({ taskId });
  });

  it('tasks/cancel cancels a running task, then refuses a final one with -32602', async () => {
    const { taskId } = (await taskCall('work', { ms: '5000' })).result.task;
    expect((await ask('tasks/cancel', { taskId })).result).toMatchObject({ taskId, status: 'cancelled' });
    expect((await ask('tasks/cancel', { taskId })).error).toEqual({ code: -32602, message: `Task ${taskId} is already cancelled` });
    expect((await ask('tasks/get', { taskId: 'job_unknown' })).error).toMatchObject({ code: -32602 });
  });

  it('runs every task-augmented call: the idempotency key is not kept for tasks', async () => {
    const runs = app.app.get(WorkTools).runs;
    const first = (await taskCall('work', { ms: '0', request_key: 'same' })).result.task.taskId;
    const again = (await taskCall('work', { ms: '0', request_key: 'same' })).result.task.taskId;
    expect(again).not.toBe(first);
    await eventually(async () => app.app.get(WorkTools).runs === runs + 2, 5_000, 'both tasks ran');
  });

  it('refuses a task-augmented call of a tool without task support with -32601', async () => {
    expect((await taskCall('echo')).error).toEqual({ code: -32601, message: 'Tool echo does not support task-augmented calls' });
  });

  it('a 2025-06-18 session ignores the task param: the job envelope, and a tool without task support runs', async () => {
    const older = sessionHeaders((await openSession(app.url, { protocolVersion: '2025-06-18' })).sessionId, '2025-06-18');
    const { result } = await taskCall('work', { ms: '0' }, older);
    expect(result).not.toHaveProperty('task');
    expect(result.structuredContent).toMatchObject({ status: 'pending', data: { job_id: expect.stringMatching(/^job_/) } });
    expect((await taskCall('echo', {}, older)).result.structuredContent).toEqual({ status: 'success', data: 'echo' });
  });
});
