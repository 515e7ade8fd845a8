import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Injectable } from '@nestjs/common';
import {
  describeTool,
  hideArguments,
  McpContext,
  McpResource,
  McpResourceNotifier,
  McpTool,
  McpToolRegistry,
  renameTool,
  type McpToolContext,
} from '@nest-mcp/core';
import { Registry } from 'prom-client';
import { listenMcp, type RunningApp } from '../../kit/apps.js';
import { eventually } from '../../kit/eventually.js';
import { EVERYTHING_LONG_TOOL, EVERYTHING_MAIN } from '../../kit/everything.js';
import { scrape, samplesOf, valueOf } from '../../kit/prometheus.js';
import { captureSpans, type SpanCapture } from '../../kit/traces.js';

type ToolResult = {
  isError?: boolean;
  structuredContent?: { status: string; data?: Record<string, unknown> };
  content?: { text?: string }[];
};

const QUESTION = { messages: [{ role: 'user' as const, content: { type: 'text', text: 'What is 2+2?' } }], maxTokens: 20 };

/** What the upstream's `wait_for_model` saw of its sampling request, once it ended. */
let waitOutcome: string | undefined;

/** What a tool saw of a failed request to its client: the envelope code and message. */
function failure(error: unknown) {
  return { code: (error as { code?: string }).code ?? 'none', message: error instanceof Error ? error.message : String(error) };
}

/** An upstream built with this library whose tools ask their client (the gateway), and a resource to watch. */
@Injectable()
class AskingTools {
  @McpTool({ name: 'ask_model', description: "Asks the client's model; its answer or the failure" })
  async askModel(@McpContext() context: McpToolContext) {
    try {
      const answer = await context.sample(QUESTION);
      return { text: answer.content.text, model: answer.model };
    } catch (error) {
      return failure(error);
    }
  }

  @McpTool({ name: 'ask_user', description: 'Asks the user for a name' })
  async askUser(@McpContext() context: McpToolContext) {
    try {
      const answer = await context.elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      return { action: answer.action, content: answer.content ?? null };
    } catch (error) {
      return failure(error);
    }
  }

  @McpTool({ name: 'list_roots', description: "The client's roots" })
  async listRoots(@McpContext() context: McpToolContext) {
    try {
      return await context.listRoots();
    } catch (error) {
      return failure(error);
    }
  }

  @McpTool({ name: 'wait_for_model', description: 'Asks the model and records how that ended' })
  async waitForModel(@McpContext() context: McpToolContext) {
    try {
      await context.sample(QUESTION);
      waitOutcome = 'answered';
    } catch (error) {
      waitOutcome = failure(error).code;
    }
    return {};
  }

  @McpResource({ uri: 'app://status', name: 'status', mimeType: 'text/plain' })
  status() {
    return 'all good';
  }
}

async function connect(url: string, client: Client): Promise<Client> {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('upstream servers: client requests, subscriptions, transforms and metrics relayed (module option upstreams)', () => {
  let capture: SpanCapture;
  let upstream: RunningApp;
  let gateway: RunningApp;
  /** Declares sampling, elicitation and roots and answers them. */
  let rich: Client;
  /** Declares nothing. */
  let plain: Client;
  const sampled: { messages: { content: { text?: string } }[] }[] = [];
  let hangSampling: ((signal: AbortSignal) => void) | undefined;

  beforeAll(async () => {
    capture = captureSpans();
    upstream = await listenMcp({ name: 'up', version: '1.0.0', lists: { listChanged: { tools: true } } }, [AskingTools]);
    upstream.app.get(McpToolRegistry).register({
      name: 'greet',
      description: 'Greets someone',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, greeting: { type: 'string' } },
        required: ['name', 'greeting'],
      },
      handler: (args) => {
        const { name, greeting } = args as { name: string; greeting: string };
        return { text: `${greeting}, ${name}` };
      },
    });
    gateway = await listenMcp({
      name: 'relay-gateway',
      version: '1.0.0',
      observability: { metrics: { path: '/metrics', registry: new Registry() } },
      sources: {
        upstreams: [
          { name: 'up', url: upstream.url },
          { name: 'everything', command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] },
        ],
      },
      tools: {
        transforms: [
          hideArguments('up_greet', { greeting: 'Hello' }),
          renameTool('everything_echo', 'say'),
          describeTool('up_late_*', 'A late tool, described by the gateway'),
        ],
      },
    });
    const capable = new Client(
      { name: 'rich', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} } },
    );
    capable.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      sampled.push(request.params as unknown as (typeof sampled)[number]);
      if (hangSampling) {
        hangSampling(extra.signal);
        await new Promise((resolve) => setTimeout(resolve, 10_000).unref());
      }
      return { role: 'assistant', content: { type: 'text', text: 'four' }, model: 'caller-model' };
    });
    capable.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    capable.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work/project', name: 'project' }] }));
    rich = await connect(gateway.url, capable);
    plain = await connect(gateway.url, new Client({ name: 'plain', version: '1.0.0' }));
    // server-everything lists its sampling, elicitation and roots tools once a client declared those capabilities.
    await eventually(
      async () => (await rich.listTools()).tools.some((tool) => tool.name === 'everything_trigger-sampling-request'),
      10_000,
      "server-everything's sampling tool listed",
    );
  }, 30_000);
  afterAll(async () => {
    await Promise.all([rich?.close(), plain?.close()]);
    await gateway?.close();
    await upstream?.close();
    await capture?.stop();
  });
  beforeEach(() => {
    sampled.length = 0;
    hangSampling = undefined;
  });

  describe('sampling, elicitation and roots requests of an upstream reach the calling client', () => {
    it('HTTP upstream: the sampling request reaches the caller (on that call’s stream) and its answer the upstream', async () => {
      const result = (await rich.callTool({ name: 'up_ask_model', arguments: {} })) as ToolResult;
      expect(result.structuredContent).toEqual({ status: 'success', data: { text: 'four', model: 'caller-model' } });
      expect(sampled).toHaveLength(1);
      expect(sampled[0].messages[0].content.text).toBe('What is 2+2?');
    });

    it('HTTP upstream: elicitation and roots', async () => {
      const elicited = (await rich.callTool({ name: 'up_ask_user', arguments: {} })) as ToolResult;
      expect(elicited.structuredContent?.data).toEqual({ action: 'accept', content: { name: 'Ada' } });
      const roots = (await rich.callTool({ name: 'up_list_roots', arguments: {} })) as ToolResult;
      expect(roots.structuredContent?.data).toEqual({ roots: [{ uri: 'file:///work/project', name: 'project' }] });
    });

    it('a caller without the capability: the upstream gets -32601 "does not support", which its tool sees', async () => {
      const result = (await plain.callTool({ name: 'up_ask_model', arguments: {} })) as ToolResult;
      expect(result.structuredContent?.data).toEqual({
        code: 'CLIENT_REQUEST_FAILED',
        message: 'The client refused: The calling client does not support sampling',
      });
      const elicited = (await plain.callTool({ name: 'up_ask_user', arguments: {} })) as ToolResult;
      expect(elicited.structuredContent?.data).toMatchObject({ message: expect.stringContaining('does not support elicitation') });
      // server-everything over stdio: its tool fails with the JSON-RPC error it got.
      const everything = (await plain.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'hi' } })) as ToolResult;
      expect(everything.isError).toBe(true);
      expect(everything.content?.[0].text).toMatch(/-32601.*The calling client does not support sampling/);
      expect(sampled).toHaveLength(0);
    });

    it('stdio upstream (server-everything): sampling, elicitation and roots reach the caller of the one call in flight', async () => {
      const sampling = (await rich.callTool({
        name: 'everything_trigger-sampling-request',
        arguments: { prompt: 'hello there', maxTokens: 10 },
      })) as ToolResult;
      expect(sampling.isError).toBeFalsy();
      expect(sampling.content?.[0].text).toContain('caller-model');
      expect(sampling.content?.[0].text).toContain('four');
      expect(sampled[0].messages[0].content.text).toContain('hello there');
      const elicited = (await rich.callTool({ name: 'everything_trigger-elicitation-request', arguments: {} })) as ToolResult;
      expect(elicited.content?.map((part) => part.text).join('\n')).toContain('- Name: Ada');
      const roots = (await rich.callTool({ name: 'everything_get-roots-list', arguments: {} })) as ToolResult;
      expect(roots.content?.[0].text).toContain('file:///work/project');
    });

    it('stdio: with two calls of that upstream in flight, its request is refused (-32601) rather than asked of either caller', async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const long = rich.callTool({ name: `everything_${EVERYTHING_LONG_TOOL}`, arguments: { duration: 2, steps: 4 } }, undefined, {
        onprogress: () => started(),
      });
      await running;
      const sampling = (await rich.callTool({
        name: 'everything_trigger-sampling-request',
        arguments: { prompt: 'whose?' },
      })) as ToolResult;
      expect(sampling.isError).toBe(true);
      expect(sampling.content?.[0].text).toMatch(/-32601.*does not answer sampling\/createMessage/);
      expect(sampled).toHaveLength(0);
      expect(((await long) as ToolResult).isError).toBeFalsy();
    });

    it('ends the relayed request when the caller cancels its call', async () => {
      waitOutcome = undefined;
      const asked = new Promise<void>((resolve) => (hangSampling = () => resolve()));
      const controller = new AbortController();
      const call = rich.callTool({ name: 'up_wait_for_model', arguments: {} }, undefined, { signal: controller.signal });
      await asked;
      controller.abort();
      await expect(call).rejects.toThrow();
      // The upstream's tool stops waiting for the model: its call is cancelled upstream, and its request answered with
      // the abandonment (whichever of the two reaches the upstream first).
      await eventually(() => waitOutcome !== undefined, 5_000, 'the upstream tool to stop waiting');
      expect(['CANCELLED', 'CLIENT_REQUEST_FAILED']).toContain(waitOutcome);
    });
  });

  it('relays a subscription to an upstream resource (one upstream subscription for all callers) and unsubscribes when nobody listens', async () => {
    const notifier = upstream.app.get(McpResourceNotifier);
    const heard = { rich: [] as string[], plain: [] as string[] };
    rich.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void heard.rich.push(notification.params.uri));
    plain.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void heard.plain.push(notification.params.uri));
    expect(notifier.resourceUpdated('app://status')).toBe(0);

    await rich.subscribeResource({ uri: 'up+app://status' });
    await plain.subscribeResource({ uri: 'up+app://status' });
    // The upstream sees one subscriber: the gateway's own session.
    await eventually(() => notifier.resourceUpdated('app://status') > 0, 5_000, 'the gateway subscribed upstream');
    expect(notifier.resourceUpdated('app://status')).toBe(1);
    await eventually(() => heard.rich.length > 0 && heard.plain.length > 0, 5_000, 'both callers notified');
    expect(new Set([...heard.rich, ...heard.plain])).toEqual(new Set(['up+app://status']));

    await rich.unsubscribeResource({ uri: 'up+app://status' });
    expect(notifier.resourceUpdated('app://status')).toBe(1); // plain still listens
    await plain.unsubscribeResource({ uri: 'up+app://status' });
    await eventually(() => notifier.resourceUpdated('app://status') === 0, 5_000, 'the gateway unsubscribed upstream');
  });

  it('applies the transforms option to upstream tools, and to tools an upstream lists later', async () => {
    const tools = (await rich.listTools()).tools;
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('say');
    expect(names).not.toContain('everything_echo');
    const greet = tools.find((tool) => tool.name === 'up_greet')!;
    expect(Object.keys(greet.inputSchema.properties ?? {})).toEqual(['name']);
    expect(greet.inputSchema.required).toEqual(['name']);

    const greeted = (await rich.callTool({ name: 'up_greet', arguments: { name: 'Ada', greeting: 'Go away' } })) as ToolResult;
    expect(greeted.structuredContent).toEqual({ status: 'success', data: { text: 'Hello, Ada' } });
    const said = (await rich.callTool({ name: 'say', arguments: { message: 'hi' } })) as ToolResult;
    expect(said.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);

    const handle = upstream.app.get(McpToolRegistry).register({ name: 'late_one', description: 'Registered later', handler: () => ({}) });
    try {
      await eventually(
        async () =>
          (await rich.listTools()).tools.some(
            (tool) => tool.name === 'up_late_one' && tool.description === 'A late tool, described by the gateway',
          ),
        10_000,
        'up_late_one listed, transformed',
      );
    } finally {
      handle.remove();
    }
  });

  it('counts upstream calls by upstream in /metrics and names the upstream on the tool span', async () => {
    capture.reset();
    await rich.callTool({ name: 'up_greet', arguments: { name: 'Ada' } });
    await rich.callTool({ name: 'say', arguments: { message: 'metrics' } });
    const span = await capture.span('execute_tool up_greet');
    expect(span.attributes['mcp.upstream.name']).toBe('up');

    const { samples } = await scrape(`${gateway.base}/metrics`);
    const server = { server: 'relay-gateway' };
    expect(valueOf(samples, 'mcp_upstream_calls_total', { ...server, upstream: 'up', status: 'success' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(samples, 'mcp_upstream_calls_total', { ...server, upstream: 'everything', status: 'success' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(valueOf(samples, 'mcp_upstream_call_duration_seconds_count', { ...server, upstream: 'everything' })).toBeGreaterThanOrEqual(1);
    // The tool metrics keep their labels: the (transformed) tool name, no upstream label.
    const say = samplesOf(samples, 'mcp_tool_calls_total', { ...server, tool: 'say' });
    expect(say.length).toBeGreaterThan(0);
    for (const sample of say) expect(Object.keys(sample.labels).sort()).toEqual(['server', 'status', 'tool']);
    expect(new Set(samplesOf(samples, 'mcp_upstream_calls_total').map((sample) => sample.labels.upstream))).toEqual(
      new Set(['up', 'everything']),
    );
  });
});
