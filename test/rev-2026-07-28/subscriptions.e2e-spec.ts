import { McpListChangedNotifier, McpResourceNotifier } from '@nest-mcp/core';
import { call2026, openListen } from './support/requests.js';
import { startFixture2026 } from './support/fixture-app.js';
import { wireViolations } from './support/wire-schema.js';
import { type RunningApp } from '../kit/apps.js';
import { initializeParams, notification, post, rpc } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';

const SUB_ID = 'io.modelcontextprotocol/subscriptionId';

/** subscriptions/listen: acknowledgement first, tagged notifications, filters, list changes in both eras. */
describe('2026-07-28 subscriptions/listen', () => {
  let fixture: RunningApp;
  let url: string;
  const readers: SseReader[] = [];

  beforeAll(async () => {
    fixture = await startFixture2026();
    url = fixture.url;
  });

  afterEach(async () => {
    for (const reader of readers.splice(0)) await reader.cancel();
  });

  afterAll(async () => {
    await fixture?.close();
  });

  async function listen(id: string | number, filter: Record<string, unknown>) {
    const opened = await openListen(url, id, filter);
    readers.push(opened.reader);
    return opened;
  }

  it('acknowledges first with the honoured subset and the subscription id, as an SSE stream', async () => {
    const { response, reader } = await listen('sub-1', { toolsListChanged: true, resourcesListChanged: true, promptsListChanged: false });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const ack = await reader.nextMessage();
    // resources.listChanged is not declared here, so it is not honoured.
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { [SUB_ID]: 'sub-1' } },
    });
    expect(wireViolations(ack)).toEqual([]);
  });

  it('delivers list changes tagged with the subscription id, only to the streams that asked for them', async () => {
    const tools = await listen(41, { toolsListChanged: true });
    const prompts = await listen(42, { promptsListChanged: true });
    await tools.reader.nextMessage();
    await prompts.reader.nextMessage();
    await call2026(url, 1, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    await call2026(url, 2, 'tools/call', { name: 'test_trigger_prompt_change', arguments: {} });
    const toolChange = await tools.reader.nextMessage();
    expect(toolChange).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB_ID]: 41 } } });
    expect(wireViolations(toolChange)).toEqual([]);
    expect(await prompts.reader.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/prompts/list_changed',
      params: { _meta: { [SUB_ID]: 42 } },
    });
    // The tools stream never sees the prompt change (nor the prompt stream the tool change).
    await expect(tools.reader.nextMessage(300)).rejects.toThrow(/no SSE item/);
  });

  it('delivers resources/updated for the subscribed URIs through McpResourceNotifier', async () => {
    const { reader } = await listen('res', { resourceSubscriptions: ['test://watched-resource'] });
    expect((await reader.nextMessage()).params.notifications).toEqual({ resourceSubscriptions: ['test://watched-resource'] });
    const reached = fixture.app.get(McpResourceNotifier).resourceUpdated('test://watched-resource');
    expect(reached).toBeGreaterThanOrEqual(1);
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://watched-resource', _meta: { [SUB_ID]: 'res' } },
    });
    fixture.app.get(McpResourceNotifier).resourceUpdated('test://static-text');
    await expect(reader.nextMessage(300)).rejects.toThrow(/no SSE item/);
  });

  it('forgets a listen whose stream the client closed', async () => {
    const { reader } = await listen('gone', { resourceSubscriptions: ['test://static-binary'] });
    await reader.nextMessage();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fixture.app.get(McpResourceNotifier).resourceUpdated('test://static-binary')).toBe(0);
  });

  it('refuses a listen without a filter (-32602) and taskIds without the tasks extension (400 -32021)', async () => {
    const noFilter = await call2026(url, 3, 'subscriptions/listen', {});
    expect(noFilter.json).toMatchObject({ id: 3, error: { code: -32602 } });
    const tasks = await call2026(url, 4, 'subscriptions/listen', { notifications: { taskIds: ['t'] } });
    expect(tasks.status).toBe(400);
    expect(tasks.json).toMatchObject({
      id: 4,
      error: { code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } },
    });
  });

  it('feeds the same list changes to the GET stream of a 2025-era session', async () => {
    const init = await post(url, rpc(1, 'initialize', initializeParams('2025-11-25')));
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(init.json.result.capabilities.tools).toEqual({ listChanged: true });
    await post(url, notification('notifications/initialized'), { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' });
    const get = await fetch(url, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
    });
    const reader = new SseReader(get);
    readers.push(reader);
    await reader.next(); // priming event
    fixture.app.get(McpListChangedNotifier).toolsChanged();
    expect(await reader.nextMessage()).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  });

  it('ends open listens with their final result when the server shuts down', async () => {
    const other = await startFixture2026();
    const opened = await openListen(other.url, 'bye', { toolsListChanged: true });
    await opened.reader.nextMessage();
    const closing = other.close();
    const final = await opened.reader.nextMessage();
    await closing;
    expect(final).toEqual({
      jsonrpc: '2.0',
      id: 'bye',
      result: {
        resultType: 'complete',
        _meta: { [SUB_ID]: 'bye', 'io.modelcontextprotocol/serverInfo': { name: 'fixture-2026-07-28', version: '2.0.0' } },
      },
    });
    expect(wireViolations(final, 'subscriptions/listen')).toEqual([]);
  });
});
