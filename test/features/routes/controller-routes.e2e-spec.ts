import { PassThrough } from 'node:stream';
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { McpModule, serveMcpOverStdio } from '@nest-mcp/core';
import { initApp, listen, type RunningApp } from '../../kit/apps.js';
import { callTool, envelopeOf, initializeRequest } from '../../kit/http.js';
import { call2026 } from '../../rev-2026-07-28/support/requests.js';
import {
  APP_KEY,
  ClashController,
  OTHER_KEY,
  StreamingController,
  WIDGETS_MCP,
  WidgetsModule,
  widgetsApp,
  widgetToken,
  globallyIntercepted,
} from './widgets-app.js';

/**
 * Controller routes served as tools, over a real socket with the official SDK client: each call runs the route's
 * own guards, interceptors, pipes (a global ValidationPipe from APP_PIPE) and filters, with the caller's credential
 * headers; outcomes map to envelopes by HTTP status.
 */

type Envelope = { status: string; data?: any; error?: { code: string; message: string; retryable: boolean; fields?: string[] } };

async function connect(app: RunningApp, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'routes-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
  const result = await client.callTool({ name, arguments: args });
  return result.structuredContent as Envelope;
}

describe('controller routes as tools', () => {
  let app: RunningApp;
  let client: Client;

  beforeAll(async () => {
    app = await listen([widgetsApp()], { bodyParser: true });
    client = await connect(app, { 'X-API-Key': APP_KEY });
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it('lists the routes with their flattened arguments, descriptions and verb hints; an excluded one is absent', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      'create_widget',
      'delete_widget',
      'echo',
      'fail',
      'get_widget',
      'replace_widget',
      'teapot',
      'wrapped',
    ]);
    expect(byName.get_widget).toMatchObject({
      description: 'One widget',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'integer' }, colour: { type: 'string' } },
        required: ['id'],
        additionalProperties: false,
      },
    });
    expect(byName.create_widget!.description).toBe('POST /widgets');
    expect(byName.create_widget!.inputSchema.properties).toEqual({
      name: { description: 'Widget name', type: 'string', minLength: 2, maxLength: 10, examples: ['sprocket'] },
    });
    expect(byName.replace_widget!.annotations).toEqual({ idempotentHint: true });
    expect(byName.delete_widget!.annotations).toEqual({ destructiveHint: true });
    expect(byName.replace_widget!.inputSchema.required).toEqual(['id', 'name']);
  });

  it("runs the route's guard with the caller's X-API-Key, its pipes (ParseIntPipe) and the query, as a REST request would", async () => {
    const envelope = await call(client, 'get_widget', { id: 7, colour: 'red' });
    expect(envelope).toEqual({
      status: 'success',
      data: { id: 7, idType: 'number', colour: 'red', key: APP_KEY, seen: { apiKey: APP_KEY }, url: '/widgets/7?colour=red' },
    });
    const rest = await fetch(`${app.base}/widgets/7?colour=red`, { headers: { 'X-API-Key': APP_KEY } });
    expect({ status: 'success', data: await rest.json() }).toEqual(envelope);
  });

  it('passes an Authorization bearer token on to the guard', async () => {
    const token = await widgetToken();
    const bearer = await connect(app, { Authorization: `Bearer ${token}` });
    try {
      const envelope = await call(bearer, 'get_widget', { id: 1 });
      expect(envelope.data.seen).toEqual({ authorization: `Bearer ${token}` });
    } finally {
      await bearer.close();
    }
  });

  it("hands the route the caller's credentials over 2024-11-05 HTTP+SSE and at 2026-07-28 too", async () => {
    const sse = new Client({ name: 'routes-e2e-sse', version: '1.0.0' });
    await sse.connect(new SSEClientTransport(new URL(`${app.base}/sse`), { requestInit: { headers: { 'X-API-Key': APP_KEY } } }));
    try {
      expect(await call(sse, 'get_widget', { id: 2 })).toMatchObject({ status: 'success', data: { id: 2, seen: { apiKey: APP_KEY } } });
    } finally {
      await sse.close();
    }
    const stateless = await call2026(
      app.url,
      1,
      'tools/call',
      { name: 'get_widget', arguments: { id: 3 } },
      { headers: { 'X-API-Key': APP_KEY } },
    );
    expect(envelopeOf(stateless)).toMatchObject({ status: 'success', data: { id: 3, seen: { apiKey: APP_KEY } } });
  });

  it("refuses as the route's own guard does: credentials MCP accepts but the app does not are UNAUTHORIZED", async () => {
    const other = await connect(app, { 'X-API-Key': OTHER_KEY });
    try {
      expect(await call(other, 'get_widget', { id: 1 })).toEqual({
        status: 'error',
        error: { code: 'UNAUTHORIZED', message: 'Widget key required', retryable: false },
      });
    } finally {
      await other.close();
    }
  });

  it('validates with the global ValidationPipe: its messages, the fields they name, the DTO the handler gets', async () => {
    const invalid = await call(client, 'create_widget', { name: 'x' });
    const rest = await fetch(`${app.base}/widgets`, {
      method: 'POST',
      headers: { 'X-API-Key': APP_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(rest.status).toBe(400);
    const restBody = (await rest.json()) as { message: string[] };
    expect(invalid).toEqual({
      status: 'error',
      // REST's message under the path it names: a tool's own refusal, word for word.
      error: {
        code: 'VALIDATION_ERROR',
        message: `Invalid arguments: name: ${restBody.message.join('; ')}`,
        retryable: false,
        fields: ['name'],
      },
    });
    expect(invalid.error!.message).toBe('Invalid arguments: name: name must be longer than or equal to 2 characters');
    expect(await call(client, 'create_widget', { name: 'gear' })).toEqual({ status: 'success', data: { created: 'gear', isDto: true } });
  });

  it('refuses an argument the route does not take before running it', async () => {
    expect(await call(client, 'delete_widget', { id: '3', bogus: 1 })).toMatchObject({
      status: 'error',
      error: { code: 'VALIDATION_ERROR', fields: ['bogus'] },
    });
    expect(await call(client, 'delete_widget', { id: '3' })).toEqual({ status: 'success', data: { deleted: '3' } });
  });

  it.each([
    [401, 'UNAUTHORIZED', false],
    [403, 'FORBIDDEN', false],
    [404, 'NOT_FOUND', false],
    [409, 'CONFLICT', false],
    [410, 'GONE', false],
    [422, 'VALIDATION_ERROR', false],
    [429, 'RATE_LIMITED', true],
  ])('maps an HttpException %i to %s', async (status, code, retryable) => {
    expect(await call(client, 'fail', { code: status })).toEqual({
      status: 'error',
      error: {
        code,
        message: code === 'VALIDATION_ERROR' ? `Invalid arguments: failed with ${status}` : `failed with ${status}`,
        retryable,
      },
    });
  });

  it('answers a 5xx as INTERNAL_ERROR without its details', async () => {
    const envelope = await call(client, 'fail', { code: 503 });
    expect(envelope.error!.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(envelope)).not.toContain('hunter2');
  });

  it('runs the app-wide interceptors (APP_INTERCEPTOR) with the http context type', async () => {
    globallyIntercepted.length = 0;
    await call(client, 'delete_widget', { id: '9' });
    // The MCP endpoint's own POST (`http:post`) passes it as well, as any controller of the app does.
    expect(globallyIntercepted.filter((entry) => entry !== 'http:post' && entry !== 'http:get')).toEqual(['http:deleteWidget']);
  });

  it("runs the route's interceptors and exception filters (a filter's answer maps by its status)", async () => {
    expect(await call(client, 'wrapped')).toEqual({ status: 'success', data: { wrapped: 'inside' } });
    expect(await call(client, 'teapot')).toEqual({
      status: 'error',
      error: { code: 'I_M_A_TEAPOT', message: 'short and stout', retryable: false },
    });
  });
});

describe('a request-scoped controller', () => {
  it("gets a fresh instance per call, with the call's request as REQUEST", async () => {
    const app = await listen([widgetsApp()]);
    const client = await connect(app, { 'X-API-Key': APP_KEY });
    try {
      const first = await call(client, 'echo');
      const second = await call(client, 'echo');
      expect(first.data.url).toBe('/scoped/echo');
      expect(second.data.instance).toBe(first.data.instance + 1);
    } finally {
      await client.close();
      await app.close();
    }
  });
});

describe('controller routes that cannot be tools', () => {
  @Module({ controllers: [StreamingController] })
  class StreamingModule {}
  @Module({ controllers: [ClashController] })
  class ClashModule {}
  @Module({})
  class EmptyModule {}

  const boot = (imports: Parameters<typeof initApp>[0]) =>
    initApp(imports).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('fails the boot for a route that writes its own response, saying why and how to exclude it', async () => {
    const error = await boot([StreamingModule, McpModule.forRoot({ name: 'routes', version: '1.0.0' })]);
    expect(error).toMatchObject({ code: 'MCP_ERR_ROUTE_UNSUPPORTED' });
    expect((error as Error).message).toBe(
      'StreamingController#stream cannot be an MCP tool: it writes its own response (@Res()). Exclude it with @McpExcludeRoute(), or drop @McpRoute() from it.',
    );
  });

  it('fails the boot when a path parameter and a body property share a name, naming both', async () => {
    const error = await boot([ClashModule, McpModule.forRoot({ name: 'routes', version: '1.0.0' })]);
    expect(error).toMatchObject({ code: 'MCP_ERR_ROUTE_ARGUMENT_CLASH' });
    expect((error as Error).message).toContain('"name" would be both the path parameter and the body property');
  });

  it('fails the boot when the routes option lists a class that holds no controller', async () => {
    const error = await boot([WidgetsModule, EmptyModule, McpModule.forRoot({ ...WIDGETS_MCP, sources: { routes: [EmptyModule] } })]);
    expect(error).toMatchObject({ code: 'MCP_ERR_ROUTE_NOT_A_CONTROLLER' });
  });
});

describe('controller routes over stdio', () => {
  it("hand the route's guard the stdio caller's token as Authorization: Bearer", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [widgetsApp()] }).compile();
    const app = await moduleRef.init();
    const token = await widgetToken('stdio-user');
    const input = new PassThrough();
    const lines: string[] = [];
    const served = serveMcpOverStdio(app, { credentials: token, input, write: (line) => void lines.push(line) });
    input.write(`${JSON.stringify(initializeRequest(1))}\n`);
    input.write(`${JSON.stringify(callTool(2, 'get_widget', { id: 4 }))}\n`);
    input.write(`${JSON.stringify(callTool(3, 'fail', { code: 404 }))}\n`);
    input.end();
    await served;
    const answers = lines.map((line) => JSON.parse(line) as { id: number; result: { structuredContent: Envelope } });
    const byId = (id: number) => answers.find((answer) => answer.id === id)!.result.structuredContent;
    expect(byId(2)).toMatchObject({ status: 'success', data: { id: 4, seen: { authorization: `Bearer ${token}` } } });
    expect(byId(3)).toEqual({ status: 'error', error: { code: 'NOT_FOUND', message: 'failed with 404', retryable: false } });
  });
});
