import { call2026, envelope, headers2026, REV_2026_07_28 } from './support/requests.js';
import { ProbeTools, startFixture2026 } from './support/fixture-app.js';
import { expectWireValid } from './support/wire-schema.js';
import { appForBlock } from '../kit/app-for-block.js';
import { post, postStream, responseOf, rpc } from '../kit/http.js';

/** Raw HTTP against one endpoint serving both eras: the 2026-07-28 validation ladder, statuses and codes. */
describe('2026-07-28 over Streamable HTTP: era routing and the request ladder', () => {
  const fixture = appForBlock(() => startFixture2026());
  let url: string;
  beforeAll(() => (url = fixture.url));

  describe('server/discover', () => {
    it('answers with the 2026-07-28 revisions, the served capabilities, instructions, caching hints and the server identity', async () => {
      const answer = await call2026(url, 'probe-1', 'server/discover');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
      expect(answer.json).toEqual({
        jsonrpc: '2.0',
        id: 'probe-1',
        result: {
          resultType: 'complete',
          supportedVersions: ['2026-07-28'],
          capabilities: {
            tools: { listChanged: true },
            prompts: { listChanged: true },
            resources: { subscribe: true },
            completions: {},
            logging: {},
            extensions: { 'io.modelcontextprotocol/tasks': {} },
          },
          instructions: 'Fixture of the 2026-07-28 e2e tests.',
          ttlMs: 0,
          cacheScope: 'public',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture-2026-07-28', version: '2.0.0' } },
        },
      });
    });

    it('serves a request without clientInfo (it is a SHOULD)', async () => {
      const params = {
        _meta: { 'io.modelcontextprotocol/protocolVersion': REV_2026_07_28, 'io.modelcontextprotocol/clientCapabilities': {} },
      };
      const answer = await post(url, rpc(5, 'server/discover', params), { ...headers2026('server/discover', params) });
      expect(answer.status).toBe(200);
      expect(answer.json.result.resultType).toBe('complete');
    });
  });

  describe('routing between the eras on one URL', () => {
    it('still runs the 2025-era handshake for a claim-less initialize, minting a session', async () => {
      const answer = await post(
        url,
        rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'client-2025', version: '1' } }),
      );
      expect(answer.status).toBe(200);
      expect(answer.json.result.protocolVersion).toBe('2025-11-25');
      expect(answer.json.result.capabilities.tasks).toBeDefined();
      expect(answer.json.result.resultType).toBeUndefined();
      expect(answer.headers.get('mcp-session-id')).toEqual(expect.any(String));
    });

    it('ignores Mcp-Session-Id on a 2026-07-28 request and mints none', async () => {
      const answer = await call2026(url, 2, 'tools/list', {}, { headers: { 'Mcp-Session-Id': 'no-such-session' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
      expect(answer.json.result.tools.length).toBeGreaterThan(0);
    });

    it('refuses a claim-less request whose header names a 2026-07-28 revision: 400 -32602 naming the missing keys', async () => {
      const answer = await post(url, rpc(101, 'server/discover', {}), { ...headers2026('server/discover', {}) });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ id: 101, error: { code: -32602, data: { envelope: { missing: ['_meta'] } } } });
    });

    it('refuses a batch that carries a 2026-07-28 claim: 400 -32600', async () => {
      const answer = await post(url, [rpc(1, 'tools/list', { _meta: envelope() })], { ...headers2026('tools/list', {}) });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe(-32600);
    });

    it('accepts client notifications with 202 and no body', async () => {
      const response = await postStream(
        url,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { 'MCP-Protocol-Version': REV_2026_07_28, 'Mcp-Method': 'notifications/initialized' },
      );
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    });
  });

  describe('the validation ladder', () => {
    it.each([
      ['missing _meta', 102, {}],
      ['a _meta without the protocol version', 103, { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } }],
      ['a _meta without client capabilities', 104, { _meta: { 'io.modelcontextprotocol/protocolVersion': REV_2026_07_28 } }],
      [
        'client capabilities of the wrong type',
        105,
        { _meta: { 'io.modelcontextprotocol/protocolVersion': REV_2026_07_28, 'io.modelcontextprotocol/clientCapabilities': 'all' } },
      ],
    ])('answers %s with 400 -32602, echoing the id', async (_label, id, params) => {
      const answer = await post(url, rpc(id, 'server/discover', params), { ...headers2026('server/discover', params) });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32602 } });
      expectWireValid([answer.json]);
    });

    it('checks the version header against the body before the version itself (-32020, not -32022)', async () => {
      const params = { _meta: envelope({}, { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) };
      const answer = await post(url, rpc(302, 'server/discover', params), { ...headers2026('server/discover', params) });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ id: 302, error: { code: -32020 } });
    });

    it('answers an unsupported revision with 400 -32022 listing the supported ones and echoing the requested one', async () => {
      const params = { _meta: envelope({}, { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) };
      const answer = await post(url, rpc(301, 'server/discover', params), {
        ...headers2026('server/discover', params, { 'MCP-Protocol-Version': 'v999.0.0' }),
      });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        jsonrpc: '2.0',
        id: 301,
        error: { code: -32022, message: expect.any(String), data: { supported: ['2026-07-28'], requested: 'v999.0.0' } },
      });
      expectWireValid([answer.json]);
    });

    it.each([
      ['a missing MCP-Protocol-Version', 'tools/list', { 'MCP-Protocol-Version': undefined }],
      ['a missing Mcp-Method', 'tools/list', { 'Mcp-Method': undefined }],
      ['an Mcp-Method naming another method', 'tools/list', { 'Mcp-Method': 'prompts/list' }],
      ['an Mcp-Method differing in case', 'tools/list', { 'Mcp-Method': 'TOOLS/LIST' }],
      ['a missing Mcp-Name', 'tools/call', { 'Mcp-Name': undefined }],
      ['an Mcp-Name naming another tool', 'tools/call', { 'Mcp-Name': 'wrong_tool_name' }],
      ['an Mcp-Name with broken Base64', 'tools/call', { 'Mcp-Name': '=?base64?Z3JlZXQ?=' }],
    ])('answers %s with 400 -32020', async (_label, method, headers) => {
      const params = method === 'tools/call' ? { name: 'greet', arguments: { name: 'Ada' } } : {};
      const answer = await call2026(url, 7, method, params, { headers });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ id: 7, error: { code: -32020 } });
    });

    it('accepts header names in any case, whitespace around values, and a Base64-encoded Mcp-Name', async () => {
      const params = { name: 'greet', arguments: { name: 'Ada' } };
      for (const headers of [
        { 'mcp-method': 'tools/call', 'MCP-NAME': '  greet  ' },
        { 'Mcp-Name': `=?base64?${Buffer.from('greet').toString('base64')}?=` },
      ]) {
        const answer = await call2026(url, 8, 'tools/call', params, { headers });
        expect(answer.status).toBe(200);
        expect(answer.json.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada!' }] });
      }
    });

    it('checks Mcp-Param-* headers of x-mcp-header arguments (missing, different, malformed: 400 -32020)', async () => {
      const params = { name: 'test_custom_header_param', arguments: { region: 'Hello' } };
      const ok = await call2026(url, 9, 'tools/call', params, { headers: { 'Mcp-Param-Region': '=?base64?SGVsbG8=?=' } });
      expect(ok.status).toBe(200);
      expect(ok.json.result.content[0].text).toBe('Region: Hello');
      for (const header of [undefined, 'us-west1', '=?base64?SGVsbG8?=']) {
        const refused = await call2026(url, 10, 'tools/call', params, { headers: { 'Mcp-Param-Region': header } });
        expect(refused.status).toBe(400);
        expect(refused.json).toMatchObject({ id: 10, error: { code: -32020 } });
        // The whole error, as the era's refusal builds it (the shared tools/call handler runs the check for the era).
        const { problem } = refused.json.error.data.mismatch;
        expect(refused.json.error).toEqual({
          code: -32020,
          message: `Header mismatch: ${problem}`,
          data: { mismatch: { header: 'Mcp-Param', problem } },
        });
        expect(problem).toContain('Mcp-Param-Region');
      }
    });

    it('lists x-mcp-header annotations untouched', async () => {
      const answer = await call2026(url, 11, 'tools/list');
      const tool = answer.json.result.tools.find((candidate: { name: string }) => candidate.name === 'test_custom_header_param');
      expect(tool.inputSchema.properties.region['x-mcp-header']).toBe('Region');
    });

    it.each([
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'tasks/result',
      'tasks/list',
      'unknown/method',
    ])('answers %s with 404 -32601 (removed or unknown in 2026-07-28), echoing the id', async (method) => {
      const answer = await call2026(url, 500, method, method.startsWith('resources/') ? { uri: 'test://static-text' } : {});
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 500, error: { code: -32601 } });
    });

    it('answers a capability the request did not declare with 400 -32021 and a ClientCapabilities object', async () => {
      const answer = await call2026(url, 401, 'tools/call', { name: 'test_missing_capability', arguments: {} });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        jsonrpc: '2.0',
        id: 401,
        error: { code: -32021, message: expect.any(String), data: { requiredCapabilities: { sampling: {} } } },
      });
      expectWireValid([answer.json]);
    });

    it('answers a bad logLevel in-band with -32602', async () => {
      const answer = await call2026(url, 12, 'tools/list', {}, { meta: { 'io.modelcontextprotocol/logLevel': 'loud' } });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 12, error: { code: -32602 } });
    });
  });

  describe('results of the revision', () => {
    it('tags every list with resultType, caching hints and the server identity; tools carry no 2025 execution member', async () => {
      for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
        const answer = await call2026(url, method, method);
        expect(answer.json.result).toMatchObject({
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'public',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture-2026-07-28' } },
        });
      }
      const tools = (await call2026(url, 13, 'tools/list')).json.result.tools as Record<string, unknown>[];
      expect(tools.some((tool) => 'execution' in tool)).toBe(false);
    });

    it('reads a resource with caching hints, and answers a missing one with -32602 carrying the URI', async () => {
      const read = await call2026(url, 14, 'resources/read', { uri: 'test://static-text' });
      expect(read.json.result).toMatchObject({
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'public',
        contents: [{ uri: 'test://static-text' }],
      });
      const missing = await call2026(url, 15, 'resources/read', { uri: 'test://nope' });
      expect(missing.status).toBe(200);
      expect(missing.json).toEqual({
        jsonrpc: '2.0',
        id: 15,
        error: { code: -32602, message: 'Resource not found', data: { uri: 'test://nope' } },
      });
    });

    it('keeps an unknown tool an in-band -32602, and invalid arguments an isError result', async () => {
      expect((await call2026(url, 16, 'tools/call', { name: 'no_such_tool' })).json).toMatchObject({ id: 16, error: { code: -32602 } });
      const invalid = await call2026(url, 17, 'tools/call', { name: 'greet', arguments: {} });
      expect(invalid.json.result).toMatchObject({ resultType: 'complete', isError: true });
    });

    it('completes prompt arguments with resultType', async () => {
      const answer = await call2026(url, 18, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'te' },
      });
      expect(answer.json.result).toMatchObject({ resultType: 'complete', completion: { values: ['test', 'testing', 'tested'] } });
    });

    it('serves concurrent requests independently', async () => {
      const answers = await Promise.all([1000, 1001, 1002].map((id) => call2026(url, id, 'tools/list')));
      expect(answers.map((answer) => [answer.status, responseOf(answer).id])).toEqual([
        [200, 1000],
        [200, 1001],
        [200, 1002],
      ]);
    });
  });

  describe('streams, logging and cancellation', () => {
    it('sends progress on the request stream, and log lines only when the request set a logLevel (at or above it)', async () => {
      const quiet = await call2026(url, 20, 'tools/call', { name: 'progress_and_logs', arguments: {} }, { meta: { progressToken: 'p1' } });
      expect(quiet.contentType).toMatch(/text\/event-stream/);
      expect(quiet.messages.filter((message) => message.method === 'notifications/message')).toEqual([]);
      expect(
        quiet.messages.filter((message) => message.method === 'notifications/progress').map((message) => message.params.progress),
      ).toEqual([1, 2]);
      expect(quiet.headers.get('x-accel-buffering')).toBe('no');

      const loud = await call2026(
        url,
        21,
        'tools/call',
        { name: 'progress_and_logs', arguments: {} },
        { meta: { 'io.modelcontextprotocol/logLevel': 'info' } },
      );
      expect(loud.messages.filter((message) => message.method === 'notifications/message').map((message) => message.params)).toEqual([
        { level: 'warning', data: 'a warning line' },
      ]);
      expect(responseOf(loud).result.resultType).toBe('complete');
    });

    it('answers with plain JSON when the client does not accept SSE (notifications are dropped)', async () => {
      const answer = await call2026(
        url,
        22,
        'tools/call',
        { name: 'progress_and_logs', arguments: {} },
        { accept: 'application/json', meta: { progressToken: 'p2' } },
      );
      expect(answer.contentType).toMatch(/application\/json/);
      expect(answer.json.result.content[0].text).toBe('ok');
    });

    it('treats closing the response as cancelling the request', async () => {
      const probe = fixture.app.get(ProbeTools);
      const controller = new AbortController();
      const params = { name: 'wait_for_abort', arguments: {}, _meta: envelope() };
      const pending = postStream(
        url,
        rpc('abandon-me', 'tools/call', params),
        { ...headers2026('tools/call', params) },
        controller.signal,
      ).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      await pending;
      const deadline = Date.now() + 3_000;
      while (!probe.aborted.includes('abandon-me') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(probe.aborted).toContain('abandon-me');
    });
  });
});
