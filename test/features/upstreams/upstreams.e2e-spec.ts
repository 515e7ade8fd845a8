import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Injectable } from '@nestjs/common';
import { McpContext, McpTool, McpToolRegistry, McpUpstreamsHealthIndicator, type McpToolContext } from '@nest-mcp/core';
import { listenMcp, type RunningApp } from '../../kit/apps.js';
import { eventually } from '../../kit/eventually.js';
import { EVERYTHING_LONG_TOOL, EVERYTHING_MAIN } from '../../kit/everything.js';
import { resetFixtureEvents, StreamingTools, waitForFixtureEvent } from '../../fixtures/streaming-tools.module.js';

/** The upstream's own view of a call: which of its sessions served it. */
@Injectable()
class SessionTools {
  @McpTool({ name: 'session_id', description: 'The upstream session that serves this call' })
  sessionId(@McpContext() context: McpToolContext): { sessionId: string | null } {
    return { sessionId: context.sessionId ?? null };
  }
}

const KEYS = { acme: 'key-acme-0123456789', globex: 'key-globex-0123456789' };

/** An HTTP upstream built with this library (the streaming fixture's tools and `session_id`); `port` to restart it in place. */
function startUpstream(port?: number): Promise<RunningApp> {
  return listenMcp({ name: 'up', version: '1.0.0', lists: { listChanged: { tools: true } } }, [StreamingTools, SessionTools], {
    ...(port !== undefined && { port }),
  });
}

async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'gateway-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown[] };

describe('upstream MCP servers behind one server (module option upstreams)', () => {
  let upstream: RunningApp;
  let gateway: RunningApp;
  let acme: Client;
  let globex: Client;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await listenMcp({
      name: 'gateway',
      version: '1.0.0',
      auth: {
        apiKeys: [
          { key: KEYS.acme, tenant: 'acme', scopes: ['everything'] },
          { key: KEYS.globex, tenant: 'globex' },
        ],
      },
      sources: {
        upstreams: [
          { name: 'up', url: upstream.url },
          { name: 'everything', command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], scopes: ['everything'] },
        ],
      },
    });
    acme = await connect(gateway.url, KEYS.acme);
    globex = await connect(gateway.url, KEYS.globex);
  }, 30_000);
  beforeEach(() => resetFixtureEvents());
  afterAll(async () => {
    await Promise.all([acme?.close(), globex?.close()]);
    await gateway?.close();
    await upstream?.close();
  });

  it('lists each upstream namespaced; the scope-gated upstream is hidden from a caller without its scope', async () => {
    const seenByAcme = (await acme.listTools()).tools.map((tool) => tool.name);
    expect(seenByAcme).toEqual(
      expect.arrayContaining(['up_slow_count', 'up_session_id', 'everything_echo', `everything_${EVERYTHING_LONG_TOOL}`]),
    );
    const seenByGlobex = (await globex.listTools()).tools.map((tool) => tool.name);
    expect(seenByGlobex).toEqual(expect.arrayContaining(['up_slow_count', 'up_session_id']));
    expect(seenByGlobex.filter((name) => name.startsWith('everything_'))).toEqual([]);
  });

  it('refuses a scope-gated upstream tool with FORBIDDEN and calls the allowed one', async () => {
    // The library refuses a call without the tool's scopes as a whole request (HTTP 403, the envelope in error.data).
    await expect(globex.callTool({ name: 'everything_echo', arguments: { message: 'hi' } })).rejects.toThrow(/"code":"FORBIDDEN"/);

    const echoed = (await acme.callTool({ name: 'everything_echo', arguments: { message: 'hi' } })) as ToolResult;
    expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
  });

  it('relays progress from an HTTP and a stdio upstream, results untouched', async () => {
    const fromUp: number[] = [];
    const counted = (await acme.callTool({ name: 'up_slow_count', arguments: { steps: 3, delayMs: 20 } }, undefined, {
      onprogress: (progress) => fromUp.push(progress.progress),
    })) as ToolResult;
    expect(fromUp).toEqual([1, 2, 3]);
    expect(counted.structuredContent).toEqual({ status: 'success', data: { counted: 3 } });

    const fromEverything: number[] = [];
    const done = (await acme.callTool({ name: `everything_${EVERYTHING_LONG_TOOL}`, arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: (progress) => fromEverything.push(progress.progress),
    })) as ToolResult;
    expect(fromEverything).toEqual([1, 2, 3]);
    expect(JSON.stringify(done.content)).toContain('Long running operation completed');
  });

  it('forwards a cancellation to the upstream', async () => {
    const controller = new AbortController();
    const call = acme.callTool({ name: 'up_slow_count', arguments: { steps: 20, delayMs: 200 } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(),
    });
    await expect(call).rejects.toThrow();
    const aborted = await waitForFixtureEvent((event) => event.type === 'aborted');
    expect(aborted.type).toBe('aborted');
  });

  it('serves upstream prompts namespaced and resources under <upstream>+<uri>', async () => {
    const prompts = (await acme.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toContain('everything_simple-prompt');
    const prompt = await acme.getPrompt({ name: 'everything_simple-prompt' });
    expect(prompt.messages[0]).toMatchObject({
      role: 'user',
      content: { type: 'text', text: 'This is a simple prompt without arguments.' },
    });

    const resources = (await acme.listResources()).resources;
    const ours = resources.filter((resource) => resource.uri.startsWith('everything+'));
    expect(ours.length).toBeGreaterThan(0);
    const read = await acme.readResource({ uri: ours[0].uri });
    expect(read.contents[0].uri).toBe(ours[0].uri);
    const templates = (await acme.listResourceTemplates()).resourceTemplates;
    expect(templates.some((template) => template.uriTemplate.startsWith('everything+'))).toBe(true);
  });

  it('keeps one upstream session per calling tenant', async () => {
    const sessionOf = async (client: Client) =>
      ((await client.callTool({ name: 'up_session_id', arguments: {} })) as ToolResult).structuredContent as {
        data: { sessionId: string };
      };
    const [first, second, other] = [await sessionOf(acme), await sessionOf(acme), await sessionOf(globex)];
    expect(first.data.sessionId).toEqual(expect.any(String));
    expect(second.data.sessionId).toBe(first.data.sessionId);
    expect(other.data.sessionId).not.toBe(first.data.sessionId);
  });

  it("announces an upstream's list change as its own and serves the new tool", async () => {
    const changed = new Promise<void>((resolve) => acme.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    const handle = upstream.app.get(McpToolRegistry).register({
      name: 'late_tool',
      description: 'Registered after the gateway booted',
      handler: () => ({ late: true }),
    });
    try {
      await changed;
      await eventually(
        async () => (await acme.listTools()).tools.some((tool) => tool.name === 'up_late_tool'),
        10_000,
        'up_late_tool listed',
      );
      const result = (await acme.callTool({ name: 'up_late_tool', arguments: {} })) as ToolResult;
      expect(result.structuredContent).toEqual({ status: 'success', data: { late: true } });
    } finally {
      handle.remove();
    }
    await eventually(async () => !(await acme.listTools()).tools.some((tool) => tool.name === 'up_late_tool'), 10_000, 'up_late_tool gone');
  });

  it('answers UNAVAILABLE within 5 s while an upstream is down, serves the others, and uses it again once back', async () => {
    const port = upstream.port;
    await upstream.close();
    const started = Date.now();
    const down = (await acme.callTool({ name: 'up_session_id', arguments: {} })) as ToolResult;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(down.isError).toBe(true);
    expect(down.structuredContent).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });
    // Its tools stay listed (the last list), the other upstream answers.
    expect((await acme.listTools()).tools.map((tool) => tool.name)).toContain('up_session_id');
    const echoed = (await acme.callTool({ name: 'everything_echo', arguments: { message: 'still here' } })) as ToolResult;
    expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
    await eventually(
      () => gateway.app.get(McpUpstreamsHealthIndicator).isHealthy()['upstreams.up'].reachable === false,
      10_000,
      'the health check sees it down',
    );

    upstream = await startUpstream(port);
    const back = (await acme.callTool({ name: 'up_session_id', arguments: {} })) as ToolResult;
    expect(back.isError).toBeFalsy();
    expect(back.structuredContent).toMatchObject({ status: 'success', data: { sessionId: expect.any(String) } });
    await eventually(() => gateway.app.get(McpUpstreamsHealthIndicator).isHealthy()['upstreams.up'].reachable, 10_000, 'reachable again');
  }, 30_000);

  it('reports each upstream to the health check without failing it for an optional one', () => {
    const health = gateway.app.get(McpUpstreamsHealthIndicator).isHealthy();
    expect(health['upstreams.everything']).toMatchObject({ status: 'up', reachable: true, transport: 'stdio' });
    expect(health['upstreams.up']).toMatchObject({ status: 'up', transport: 'http', sessions: 2 });
  });
});
