import { call2026 } from './support/requests.js';
import { ProbeTools, REQUEST_STATE_SECRET, startFixture2026 } from './support/fixture-app.js';
import { appForBlock } from '../kit/app-for-block.js';

const ALL = { elicitation: {}, sampling: {}, roots: {} };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** Multi round-trip requests (MRTR): unchanged handlers, `input_required` rounds, HMAC-protected requestState. */
describe('2026-07-28 multi round-trip requests', () => {
  const fixture = appForBlock(() => startFixture2026());
  let url: string;
  beforeAll(() => (url = fixture.url));

  const call = (id: number, name: string, extra: Record<string, unknown> = {}, capabilities: Record<string, unknown> = ALL) =>
    call2026(url, id, 'tools/call', { name, arguments: {}, ...extra }, { capabilities });

  it('answers input_required with the handler question, then the complete result on the retry', async () => {
    const first = await call(1, 'test_input_required_result_elicitation');
    expect(first.status).toBe(200);
    const round = first.json.result;
    expect(round).toEqual({
      resultType: 'input_required',
      inputRequests: {
        user_name: {
          method: 'elicitation/create',
          params: {
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      },
      requestState: expect.any(String),
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture-2026-07-28', version: '2.0.0' } },
    });
    expect(round).not.toHaveProperty('ttlMs');
    const second = await call(2, 'test_input_required_result_elicitation', {
      inputResponses: { user_name: accept({ name: 'Alice' }) },
      requestState: round.requestState,
    });
    expect(second.json.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Alice!' }] });
  });

  it('re-runs the handler from the start on every round', async () => {
    const probe = fixture.app.get(ProbeTools);
    const before = probe.runs;
    const first = await call(3, 'count_runs');
    const second = await call(4, 'count_runs', {
      inputResponses: { 'elicit-1': accept({ go: true }) },
      requestState: first.json.result.requestState,
    });
    expect(second.json.result.content[0].text).toBe(`runs=${before + 2} action=accept`);
  });

  it('asks everything a round needs at once, and mints a new requestState every round', async () => {
    const multiple = (await call(5, 'test_input_required_result_multiple_inputs')).json.result;
    expect(
      Object.fromEntries(Object.entries(multiple.inputRequests).map(([key, value]) => [key, (value as { method: string }).method])),
    ).toEqual({
      user_name: 'elicitation/create',
      greeting: 'sampling/createMessage',
      'roots-3': 'roots/list',
    });

    const r1 = (await call(6, 'test_input_required_result_multi_round')).json.result;
    expect(Object.keys(r1.inputRequests)).toEqual(['step1']);
    const r2 = (
      await call(7, 'test_input_required_result_multi_round', {
        inputResponses: { step1: accept({ name: 'Ada' }) },
        requestState: r1.requestState,
      })
    ).json.result;
    expect(Object.keys(r2.inputRequests)).toEqual(['step2']);
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = (
      await call(8, 'test_input_required_result_multi_round', {
        inputResponses: { step2: accept({ color: 'green' }) },
        requestState: r2.requestState,
      })
    ).json.result;
    expect(r3.content[0].text).toBe('Ada likes green');
  });

  it('asks again for missing answers and ignores extra keys', async () => {
    const wrong = (await call(9, 'test_input_required_result_elicitation', { inputResponses: { wrong_key: accept({ name: 'x' }) } })).json
      .result;
    expect(wrong.resultType).toBe('input_required');
    expect(Object.keys(wrong.inputRequests)).toEqual(['user_name']);
    const extra = await call(10, 'test_input_required_result_elicitation', {
      inputResponses: { user_name: accept({ name: 'Bo' }), unknown: { action: 'accept' } },
    });
    expect(extra.json.result.content[0].text).toBe('Hello, Bo!');
  });

  it('refuses malformed inputResponses with -32602', async () => {
    for (const inputResponses of [null, 42, [accept({})], { user_name: 12345 }, { user_name: { action: 'maybe' } }]) {
      const answer = await call2026(
        url,
        11,
        'tools/call',
        { name: 'test_input_required_result_elicitation', arguments: {}, inputResponses },
        { capabilities: ALL },
      );
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 11, error: { code: -32602 } });
    }
  });

  it('refuses a tampered, foreign or rebound requestState with -32602', async () => {
    const round = (await call(12, 'test_input_required_result_tampered_state')).json.result;
    const answers = { inputResponses: { confirm: accept({ ok: true }) } };
    const tampered = await call(13, 'test_input_required_result_tampered_state', {
      ...answers,
      requestState: `${round.requestState}-TAMPERED`,
    });
    expect(tampered.json).toMatchObject({ id: 13, error: { code: -32602, message: expect.stringContaining('requestState') } });
    // Bound to the method and its arguments: the same state for another tool, or other arguments, is refused.
    const otherTool = await call(14, 'test_input_required_result_request_state', { ...answers, requestState: round.requestState });
    expect(otherTool.json.error.code).toBe(-32602);
    const otherArgs = await call2026(
      url,
      15,
      'tools/call',
      { name: 'test_input_required_result_tampered_state', arguments: { x: 1 }, ...answers, requestState: round.requestState },
      { capabilities: ALL },
    );
    expect(otherArgs.json.error.code).toBe(-32602);
    // The genuine one still works.
    const genuine = await call(16, 'test_input_required_result_tampered_state', { ...answers, requestState: round.requestState });
    expect(genuine.json.result.content[0].text).toBe('Confirmed: accept');
  });

  it('only asks for what this request declared, and refuses a tool that cannot do without it (400 -32021)', async () => {
    const samplingOnly = (await call(17, 'test_input_required_result_capabilities', {}, { sampling: {} })).json.result;
    expect(Object.values(samplingOnly.inputRequests).map((entry) => (entry as { method: string }).method)).toEqual([
      'sampling/createMessage',
    ]);
    const none = await call(18, 'test_input_required_result_elicitation', {}, {});
    expect(none.status).toBe(400);
    expect(none.json.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it('works for prompts/get through McpClientInput', async () => {
    const first = await call2026(url, 19, 'prompts/get', { name: 'test_input_required_result_prompt' }, { capabilities: ALL });
    expect(first.json.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_context: { method: 'elicitation/create' } },
    });
    const second = await call2026(
      url,
      20,
      'prompts/get',
      {
        name: 'test_input_required_result_prompt',
        inputResponses: { user_context: accept({ context: 'tests' }) },
        requestState: first.json.result.requestState,
      },
      { capabilities: ALL },
    );
    expect(second.json.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Use this context: tests' } }],
    });
  });

  it('never answers input_required to other methods', async () => {
    for (const method of ['tools/list', 'prompts/list'])
      expect((await call2026(url, 21, method, {}, { capabilities: ALL })).json.result.resultType).toBe('complete');
  });

  it('refuses a requestState from another server key (every instance must share requestState.secret)', async () => {
    const other = await startFixture2026({ requestState: { secret: `${REQUEST_STATE_SECRET}-other` } });
    try {
      const round = (await call(22, 'test_input_required_result_tampered_state')).json.result;
      const elsewhere = await call2026(
        other.url,
        23,
        'tools/call',
        { name: 'test_input_required_result_tampered_state', arguments: {}, requestState: round.requestState },
        { capabilities: ALL },
      );
      expect(elsewhere.json.error.code).toBe(-32602);
    } finally {
      await other.close();
    }
  });
});

describe('2026-07-28 requestState is bound to the caller', () => {
  const KEYS = { a: 'key-of-tenant-a-0123456789', b: 'key-of-tenant-b-0123456789' };
  const fixture = appForBlock(() =>
    startFixture2026({
      auth: {
        apiKeys: [
          { key: KEYS.a, tenant: 'a' },
          { key: KEYS.b, tenant: 'b' },
        ],
      },
    }),
  );

  it("refuses another caller's state with -32602", async () => {
    const as = (key: string) => ({ capabilities: ALL, headers: { 'X-API-Key': key } });
    const params = { name: 'test_input_required_result_tampered_state', arguments: {} };
    const round = (await call2026(fixture.url, 1, 'tools/call', params, as(KEYS.a))).json.result;
    const retry = { ...params, inputResponses: { confirm: accept({ ok: true }) }, requestState: round.requestState };
    expect((await call2026(fixture.url, 2, 'tools/call', retry, as(KEYS.b))).json.error.code).toBe(-32602);
    expect((await call2026(fixture.url, 3, 'tools/call', retry, as(KEYS.a))).json.result.resultType).toBe('complete');
  });

  it('marks answers that depend on the caller as privately cacheable', async () => {
    const headers = { 'X-API-Key': KEYS.a };
    expect((await call2026(fixture.url, 4, 'tools/list', {}, { headers })).json.result.cacheScope).toBe('public'); // no tool is filtered by scope
    expect((await call2026(fixture.url, 5, 'resources/read', { uri: 'test://static-text' }, { headers })).json.result.cacheScope).toBe(
      'private',
    );
  });
});
