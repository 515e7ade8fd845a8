import { call2026 } from './support/requests.js';
import { startFixture2026 } from './support/fixture-app.js';
import { appForBlock } from '../kit/app-for-block.js';
import { initializeParams, post, rpc } from '../kit/http.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const WITH_TASKS = { elicitation: {}, ...TASKS };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** The tasks extension (io.modelcontextprotocol/tasks) over job tools. */
describe('2026-07-28 tasks extension', () => {
  const fixture = appForBlock(() => startFixture2026());
  let url: string;
  beforeAll(() => (url = fixture.url));
  let sequence = 0;

  const call = async (
    name: string,
    args: Record<string, unknown> = {},
    capabilities: Record<string, unknown> = WITH_TASKS,
    extra: Record<string, unknown> = {},
  ) => (await call2026(url, ++sequence, 'tools/call', { name, arguments: args, ...extra }, { capabilities })).json;
  const task = async (method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = WITH_TASKS) =>
    (await call2026(url, ++sequence, method, params, { capabilities })).json;
  async function settle(
    taskId: string,
    until: (status: string) => boolean = (status) => ['completed', 'failed', 'cancelled'].includes(status),
  ) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { result } = await task('tasks/get', { taskId });
      if (until(result.status) || Date.now() > deadline) return result;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('returns a flat CreateTaskResult that a tasks/get finds at once, then inlines the result', async () => {
    const created = (await call('slow_compute', { seconds: 0.3, label: 'pi' })).result;
    expect(created).toEqual({
      resultType: 'task',
      taskId: expect.stringMatching(/^job_/),
      status: 'working',
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttlMs: 3_600_000,
      pollIntervalMs: 500,
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture-2026-07-28', version: '2.0.0' } },
    });
    expect((await task('tasks/get', { taskId: created.taskId })).result).toMatchObject({
      resultType: 'complete',
      taskId: created.taskId,
      status: 'working',
    });
    const done = await settle(created.taskId);
    expect(done).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Computed pi after 0.3s' }] },
    });
    expect(done).not.toHaveProperty('requestState');
  });

  it('reports a tool error as completed with isError, and a crash as failed with a JSON-RPC error', async () => {
    const failing = await settle((await call('failing_job')).result.taskId);
    expect(failing).toMatchObject({ status: 'completed', result: { isError: true } });
    const crashed = await settle((await call('protocol_error_job')).result.taskId);
    expect(crashed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    expect(crashed).not.toHaveProperty('result');
  });

  it('cancels cooperatively, and acknowledges a cancel of a finished task too', async () => {
    const { taskId } = (await call('slow_compute', { seconds: 60 })).result;
    expect((await task('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await settle(taskId)).status).toBe('cancelled');
    expect((await task('tasks/cancel', { taskId })).result.resultType).toBe('complete');
  });

  it('surfaces input requests on tasks/get and resumes on tasks/update, one key at a time', async () => {
    const { taskId } = (await call('multi_input')).result;
    const waiting = await settle(taskId, (status) => status === 'input_required');
    const keys = Object.keys(waiting.inputRequests);
    expect(keys).toEqual(['elicit-1', 'elicit-2']);
    expect(
      (await task('tasks/update', { taskId, inputResponses: { [keys[0]]: accept({ name: 'one' }), unknown: accept({}) } })).result
        .resultType,
    ).toBe('complete');
    const partial = (await task('tasks/get', { taskId })).result;
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests)).toEqual([keys[1]]);
    await task('tasks/update', { taskId, inputResponses: { [keys[1]]: accept({ name: 'two' }) } });
    expect((await settle(taskId)).result.content[0].text).toBe('Got one and two');
  });

  it('runs the MRTR rounds of an inputFirst tool before creating its task', async () => {
    const round = (await call('test_tool_with_task')).result;
    expect(round).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
    expect(round).not.toHaveProperty('taskId');
    const created = (
      await call('test_tool_with_task', {}, WITH_TASKS, {
        inputResponses: { user_name: accept({ name: 'Alice' }) },
        requestState: round.requestState,
      })
    ).result;
    expect(created).toMatchObject({ resultType: 'task', taskId: expect.any(String) });
    expect(created).not.toHaveProperty('requestState');
    expect((await settle(created.taskId)).result.content[0].text).toBe('Hello from a task, Alice!');
  });

  it('keeps requests without the extension synchronous: the job envelope, or -32021 for task-only tools', async () => {
    const pending = (await call('slow_compute', { seconds: 0 }, {})).result;
    expect(pending).toMatchObject({
      resultType: 'complete',
      structuredContent: { status: 'pending', data: { job_id: expect.any(String) } },
    });
    const required = await call2026(url, ++sequence, 'tools/call', { name: 'failing_job', arguments: {} }, { capabilities: {} });
    expect(required.status).toBe(400);
    expect(required.json.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });

  it('ignores a 2025-11-25 task param on a synchronous tool', async () => {
    const result = (await call('greet', { name: 'Ada' }, WITH_TASKS, { task: { ttl: 60_000, pollInterval: 100 } })).result;
    expect(result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada!' }] });
  });

  it('gates tasks/* on the extension before looking at the task id, and answers unknown ids with -32602', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const refused = await call2026(url, ++sequence, method, { taskId: 'whatever', inputResponses: {} }, { capabilities: {} });
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe(-32021);
      expect((await task(method, { taskId: 'job_unknown', inputResponses: {} })).error.code).toBe(-32602);
    }
  });

  it('checks Mcp-Name against the task id', async () => {
    const { taskId } = (await call('slow_compute', { seconds: 60 })).result;
    const mismatch = await call2026(
      url,
      ++sequence,
      'tasks/get',
      { taskId },
      { capabilities: WITH_TASKS, headers: { 'Mcp-Name': 'another-task' } },
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.error.code).toBe(-32020);
    await task('tasks/cancel', { taskId });
  });

  it('shares the job store with 2025-era sessions (v1 tasks/get sees a task of the extension)', async () => {
    const { taskId } = (await call('slow_compute', { seconds: 0 })).result;
    await settle(taskId);
    const init = await post(url, rpc(1, 'initialize', initializeParams('2025-11-25')));
    const sessionId = init.headers.get('mcp-session-id')!;
    const v1Get = await post(url, rpc(2, 'tasks/get', { taskId }), { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' });
    expect(v1Get.messages[0].result).toMatchObject({ taskId, status: 'completed' });
  });
});
