import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpModule } from '@nest-mcp/core';
import { SignJWT } from 'jose';
import { initApp, listenMcp, SpawnedHelpdeskApi, type RunningApp } from '../../kit/apps.js';
import { ensureHelpdeskBuilt } from '../../kit/build.js';
import { freePort } from '../../kit/redis-server.harness.js';
import { EDGE_DOCUMENT, startEdgeApi, type EdgeApi } from './edge-api.js';

/**
 * OpenAPI documents as tools, as a user runs them: the helpdesk sample runs as its own process; a second Nest app
 * fetches its `GET /docs-json` at boot and serves its operations as tools, driven with the official SDK client.
 * Each call is a real HTTP request to the helpdesk with the caller's token forwarded, so the helpdesk's own guards
 * and ValidationPipe decide, and their answers map to envelopes as controller routes' do.
 */

const SECRET = 'helpdesk-e2e-secret-helpdesk-e2e-secret';

type Envelope = { status: string; data?: any; error?: { code: string; message: string; retryable: boolean; fields?: string[] } };

function token(sub: string, scope: string): Promise<string> {
  return new SignJWT({ tenant_id: 'acme', scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(SECRET));
}

async function connect(app: RunningApp, bearer?: string): Promise<Client> {
  const client = new Client({ name: 'openapi-e2e', version: '1.0.0' });
  const headers: Record<string, string> = bearer ? { Authorization: `Bearer ${bearer}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
  const result = await client.callTool({ name, arguments: args });
  return result.structuredContent as Envelope;
}

describe('OpenAPI documents as tools (the helpdesk /docs-json, fetched at boot by a second app)', () => {
  let helpdesk: SpawnedHelpdeskApi;
  let edge: EdgeApi;
  let app: RunningApp;
  let closedPort: number;
  const tokens = { writer: '', admin: '' };
  const clients: { writer?: Client; admin?: Client; anonymous?: Client } = {};

  beforeAll(async () => {
    await ensureHelpdeskBuilt();
    [helpdesk, edge, closedPort] = await Promise.all([
      SpawnedHelpdeskApi.start({ HELPDESK_JWT_SECRET: SECRET }),
      startEdgeApi(),
      freePort(),
    ]);
    tokens.writer = await token('wanda', 'tickets:read tickets:write');
    tokens.admin = await token('ada', 'tickets:read tickets:write tickets:admin');
    app = await listenMcp({
      name: 'assistant',
      version: '1.0.0',
      sources: {
        openapi: [
          { document: `${helpdesk.baseUrl}/docs-json`, forwardAuthorization: true },
          { name: 'edge', document: EDGE_DOCUMENT, baseUrl: edge.baseUrl, timeoutMs: 300, maxResponseBytes: 8 * 1024 },
          { name: 'gone', document: EDGE_DOCUMENT, baseUrl: `http://127.0.0.1:${closedPort}`, include: { operations: ['status'] } },
        ],
      },
    });
    clients.writer = await connect(app, tokens.writer);
    clients.admin = await connect(app, tokens.admin);
    clients.anonymous = await connect(app);
  }, 120_000);

  afterAll(async () => {
    for (const client of Object.values(clients)) await client?.close();
    await app?.close();
    await edge?.close();
    await helpdesk?.stop();
  });

  /** A REST request to the helpdesk itself. */
  async function rest(bearer: string, path: string): Promise<{ status: number; body: any }> {
    const response = await fetch(`${helpdesk.baseUrl}${path}`, { headers: { Authorization: `Bearer ${bearer}` } });
    return { status: response.status, body: await response.json() };
  }

  it('lists each operation as a tool: snake_case names, flattened arguments, descriptions, verb hints, output schemas', async () => {
    const { tools } = await clients.writer!.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      'add_comment',
      'close_ticket',
      'create_ticket',
      'edge_big',
      'edge_boom',
      'edge_slow',
      'edge_status',
      'get_ticket',
      'gone_status',
      'list_tickets',
    ]); // edge's multipart upload is skipped (with a boot warning)

    const create = byName.create_ticket;
    expect(create.description).toBe('Open a support ticket');
    expect(Object.keys(create.inputSchema.properties!)).toEqual(['title', 'body', 'priority', 'tags', 'requester']);
    expect(create.inputSchema.required).toEqual(['title', 'body', 'requester']);
    expect(create.inputSchema.properties!.title).toMatchObject({ type: 'string', minLength: 3, maxLength: 120 });
    expect(create.inputSchema.properties!.requester).toMatchObject({
      description: 'Who asks',
      allOf: [{ type: 'object', required: ['email'] }],
    });
    expect(byName.add_comment.inputSchema).toMatchObject({ required: ['id', 'body'] });
    expect(Object.keys(byName.list_tickets.inputSchema.properties!)).toEqual(['status', 'priority', 'limit', 'cursor']);
    expect(byName.list_tickets.annotations).toEqual({ readOnlyHint: true });
    expect(byName.get_ticket.inputSchema.properties!.id).toMatchObject({ type: 'string', description: 'Ticket id (tkt_…)' });

    expect(byName.edge_status.outputSchema!.properties!.data).toMatchObject({
      type: 'object',
      properties: { ok: { type: 'boolean' }, region: { type: 'string' } },
    });
    expect(await call(clients.writer!, 'edge_status')).toEqual({ status: 'success', data: { ok: true, region: 'eu-1' } });
  });

  it("creates, comments, reads and lists through the helpdesk with the caller's token; the same ticket over REST", async () => {
    const created = await call(clients.writer!, 'create_ticket', {
      title: 'Printer on fire',
      body: 'Smoke since this morning.',
      priority: 'urgent',
      requester: { email: 'ada@example.com' },
    });
    expect(created).toMatchObject({ status: 'success', data: { title: 'Printer on fire', status: 'open', priority: 'urgent', tags: [] } });
    const id = created.data.id as string;

    const comment = await call(clients.writer!, 'add_comment', { id, body: 'Extinguisher used.' });
    expect(comment).toMatchObject({ status: 'success', data: { body: 'Extinguisher used.', author: 'wanda' } });

    const read = await call(clients.writer!, 'get_ticket', { id });
    expect(read.data.comments).toHaveLength(1);
    const overRest = await rest(tokens.writer, `/tickets/${id}`);
    expect(overRest).toEqual({ status: 200, body: read.data });

    const page = await call(clients.writer!, 'list_tickets', { status: 'open', limit: 100 });
    expect(page.data.items.map((ticket: { id: string }) => ticket.id)).toContain(id);
  });

  it("answers as the helpdesk's own guards and ValidationPipe decide: 403, 401, 404, 409 and 400 mapped to codes", async () => {
    const { data } = await call(clients.writer!, 'create_ticket', { title: 'Close me', body: 'x', requester: { email: 'a@b.co' } });

    expect((await call(clients.writer!, 'close_ticket', { id: data.id, resolution: 'done' })).error).toMatchObject({
      code: 'FORBIDDEN',
      retryable: false,
    });
    expect((await call(clients.anonymous!, 'list_tickets')).error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await call(clients.writer!, 'get_ticket', { id: 'tkt_nope' })).error).toMatchObject({ code: 'NOT_FOUND' });

    expect(await call(clients.admin!, 'close_ticket', { id: data.id, resolution: 'done' })).toMatchObject({
      status: 'success',
      data: { status: 'closed' },
    });
    expect((await call(clients.admin!, 'close_ticket', { id: data.id, resolution: 'again' })).error).toMatchObject({ code: 'CONFLICT' });

    // The document says nothing of the email's format: the helpdesk's ValidationPipe refuses it, its message and field kept.
    const invalid = await call(clients.writer!, 'create_ticket', { title: 'Bad mail', body: 'x', requester: { email: 'not-an-email' } });
    expect(invalid.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Invalid arguments: requester.email: requester.email must be an email',
      retryable: false,
      fields: ['requester.email'],
    });
    // What the document does say is checked here, before any request.
    const short = await call(clients.writer!, 'create_ticket', { title: 'ab', body: 'x', requester: { email: 'a@b.co' } });
    expect(short.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['title'] });
  });

  it('ends a slow answer as TIMEOUT, an oversized one as RESPONSE_TOO_LARGE, a 500 without its details, no connection as UNAVAILABLE', async () => {
    expect((await call(clients.writer!, 'edge_slow')).error).toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
      message: 'The API did not answer within 300 ms.',
    });
    expect((await call(clients.writer!, 'edge_big')).error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', retryable: false });
    const boom = await call(clients.writer!, 'edge_boom');
    expect(boom.error).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(boom)).not.toContain('hunter2');
    expect((await call(clients.writer!, 'gone_status')).error).toMatchObject({ code: 'UNAVAILABLE', retryable: true });
  });

  it('includes and excludes by tag and operation, and names tools <name>_<operation> (as a gateway configures it)', async () => {
    const selective = await listenMcp({
      name: 'selective',
      version: '1.0.0',
      sources: {
        openapi: [
          {
            name: 'helpdesk',
            document: `${helpdesk.baseUrl}/docs-json`,
            forwardAuthorization: true,
            include: { tags: ['tickets'] },
            exclude: { operations: ['closeTicket', 'add_comment'] },
          },
        ],
      },
    });
    const client = await connect(selective, tokens.writer);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['helpdesk_create_ticket', 'helpdesk_get_ticket', 'helpdesk_list_tickets']);
      expect(await call(client, 'helpdesk_list_tickets', { limit: 1 })).toMatchObject({
        status: 'success',
        data: { items: expect.any(Array) },
      });
    } finally {
      await client.close();
      await selective.close();
    }
  });

  it('fails the boot with a coded error naming the document when it cannot be fetched', async () => {
    const url = `http://127.0.0.1:${closedPort}/docs-json`;
    const error = await initApp([McpModule.forRoot({ name: 'nope', version: '1.0.0', sources: { openapi: [{ document: url }] } })]).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'MCP_ERR_OPENAPI_UNREACHABLE' });
    expect((error as Error).message).toContain(`The OpenAPI document ${url} could not be read: the connection failed.`);
  });
});
