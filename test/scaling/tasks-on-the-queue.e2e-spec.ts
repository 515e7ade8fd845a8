import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { McpContent, McpContext, McpResult, McpTaskSupport, McpTool, withMcpInputKey, type McpToolContext } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { MCP_JOB_QUEUE } from '../../libs/mcp/src/jobs/job-queue.interface.js';
import { call2026 } from '../rev-2026-07-28/support/requests.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { instancesOnOneRedis } from './scaling-support.js';

const TASKS = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const SECRET = 'tasks-on-the-queue-request-state-secret-0123456789';
const NAME_QUESTION = {
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

/** Job tools that count, per app instance, the runs that got past their questions (the real work). */
@Injectable()
class AskingTools {
  worked = 0;

  @McpTool({ name: 'ask_first', description: 'Asks a name in the request, then works as a task', job: true, timeoutMs: 60_000 })
  @McpTaskSupport({ required: true, inputFirst: true })
  async askFirst(@McpContext() context: McpToolContext) {
    const answer = await context.elicit(withMcpInputKey('name', NAME_QUESTION));
    context.reportProgress(0, 1, 'Working');
    await sleep(300, undefined, { signal: context.signal });
    this.worked++;
    return McpResult.raw({ content: [McpContent.text(`Hello ${String(answer.content?.name)}`)] });
  }

  @McpTool({ name: 'ask_later', description: 'Works, then asks a name through tasks/update', job: true, timeoutMs: 60_000 })
  async askLater(@McpContext() context: McpToolContext) {
    const answer = await context.elicit(NAME_QUESTION);
    this.worked++;
    return McpResult.raw({ content: [McpContent.text(`Later, ${String(answer.content?.name)}`)] });
  }
}

let sequence = 0;
const rpc = async (url: string, method: string, params: Record<string, unknown>) =>
  (await call2026(url, ++sequence, method, params, { capabilities: TASKS })).json;
const settled = async (url: string, taskId: string, until = ['completed', 'failed', 'cancelled']) => {
  let task: any;
  await eventually(async () => until.includes((task = (await rpc(url, 'tasks/get', { taskId })).result).status), 10_000, 'the task ended');
  return task;
};

/**
 * Every 2026-07-28 task goes through the one job queue: accepted by instance A, it may run on instance B. Here A's
 * worker is stopped, so a task accepted by A can only run on B.
 */
describe('2026-07-28 tasks run on the shared queue, whatever instance accepted them', () => {
  const shared = instancesOnOneRedis({
    count: 2,
    start: (redisUrl) =>
      listenMcp({ name: 'queued-tasks', version: '1.0.0', redis: { url: redisUrl }, requestState: { secret: SECRET } }, [AskingTools]),
  });
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    [a, b] = shared.apps;
    // A accepts calls but takes no job from the queue.
    await (a.app.get(MCP_JOB_QUEUE) as unknown as { worker: { close(): Promise<void> } }).worker.close();
  });

  it('an inputFirst task asks its question in the request on A, then runs on B with the answer given', async () => {
    const round = (await rpc(a.url, 'tools/call', { name: 'ask_first', arguments: {} })).result;
    expect(round).toMatchObject({ resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } });
    const created = (
      await rpc(a.url, 'tools/call', {
        name: 'ask_first',
        arguments: {},
        inputResponses: { name: { action: 'accept', content: { name: 'Alice' } } },
        requestState: round.requestState,
      })
    ).result;
    expect(created).toMatchObject({ resultType: 'task', taskId: expect.stringMatching(/^job_/) });

    const task = await settled(b.url, created.taskId);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Hello Alice' }] } });
    // The work ran once, on B; A only ran the handler up to its first progress report.
    expect([a.app.get(AskingTools).worked, b.app.get(AskingTools).worked]).toEqual([0, 1]);
  });

  it('a queued task asks through tasks/update: answered on A, it goes on on B', async () => {
    const before = b.app.get(AskingTools).worked;
    const created = (await rpc(a.url, 'tools/call', { name: 'ask_later', arguments: {} })).result;
    const waiting = await settled(a.url, created.taskId, ['input_required']);
    const [key] = Object.keys(waiting.inputRequests);
    await rpc(a.url, 'tasks/update', { taskId: created.taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Bob' } } } });
    const task = await settled(a.url, created.taskId);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ text: 'Later, Bob' }] } });
    expect(b.app.get(AskingTools).worked).toBe(before + 1);
    expect(a.app.get(AskingTools).worked).toBe(0);
  });
});
