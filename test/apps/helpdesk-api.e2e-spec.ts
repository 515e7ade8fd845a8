import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT } from 'jose';
import { SpawnedHelpdeskApi } from '../kit/apps.js';
import { ensureHelpdeskBuilt } from '../kit/build.js';
import { callTool, post } from '../kit/http.js';

/**
 * The helpdesk sample as users run it (`node dist/apps/helpdesk-api/main.js`): its REST API and the same routes as
 * MCP tools through the official SDK client agree on every route, its own JWT and scope guards refuse and allow
 * alike, validation messages are ValidationPipe's, HttpExceptions map to envelope codes.
 */

const SECRET = 'helpdesk-e2e-secret-helpdesk-e2e-secret';

function token(sub: string, tenant: string, scope: string): Promise<string> {
  return new SignJWT({ tenant_id: tenant, scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(SECRET));
}

type Envelope = { status: string; data?: any; error?: { code: string; message: string; retryable: boolean; fields?: string[] } };

describe('apps/helpdesk-api: REST and MCP over the same routes', () => {
  let server: SpawnedHelpdeskApi;
  const tokens: Record<'writer' | 'reader' | 'admin' | 'stranger', string> = { writer: '', reader: '', admin: '', stranger: '' };
  const clients: Partial<Record<keyof typeof tokens, Client>> = {};

  /** A REST request as a user: status and JSON body. */
  async function rest(who: keyof typeof tokens | undefined, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        ...(who && { Authorization: `Bearer ${tokens[who]}` }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function mcp(who: keyof typeof tokens, name: string, args: Record<string, unknown>): Promise<Envelope> {
    const result = await clients[who]!.callTool({ name, arguments: args });
    return result.structuredContent as Envelope;
  }

  beforeAll(async () => {
    await ensureHelpdeskBuilt();
    server = await SpawnedHelpdeskApi.start({ HELPDESK_JWT_SECRET: SECRET });
    tokens.writer = await token('wanda', 'acme', 'tickets:read tickets:write');
    tokens.reader = await token('reed', 'acme', 'tickets:read');
    tokens.admin = await token('ada', 'acme', 'tickets:read tickets:write tickets:admin');
    tokens.stranger = await token('sam', 'globex', 'tickets:read tickets:write tickets:admin');
    for (const who of Object.keys(tokens) as (keyof typeof tokens)[]) {
      const client = new Client({ name: `helpdesk-${who}`, version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${tokens[who]}` } } }),
      );
      clients[who] = client;
    }
  }, 120_000);

  afterAll(async () => {
    for (const client of Object.values(clients)) await client.close();
    await server?.stop();
  });

  const newTicket = {
    title: 'Printer on fire',
    body: 'Smoke since this morning.',
    priority: 'urgent',
    tags: ['hardware'],
    requester: { email: 'ada@example.com', name: 'Ada' },
  };

  it('lists its Zod tool and the five routes as tools, arguments at the top level', async () => {
    const { tools } = await clients.writer!.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_tickets',
      'create_ticket',
      'list_tickets',
      'get_ticket',
      'add_comment',
      'close_ticket',
    ]);
    const addComment = tools.find((tool) => tool.name === 'add_comment')!;
    expect(Object.keys(addComment.inputSchema.properties!)).toEqual(['id', 'body']);
    expect(addComment.inputSchema.required).toEqual(['id', 'body']);
    expect(tools.find((tool) => tool.name === 'list_tickets')!.annotations).toEqual({ readOnlyHint: true });
  });

  it('serves its OpenAPI document with the five operationIds', async () => {
    const document = (await (await fetch(`${server.baseUrl}/docs-json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operationIds = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).map((operation) => operation.operationId),
    );
    expect(operationIds.sort()).toEqual(['addComment', 'closeTicket', 'createTicket', 'getTicket', 'listTickets']);
  });

  it('creates, reads, lists, comments on and closes the same tickets through either door', async () => {
    const created = await mcp('writer', 'create_ticket', newTicket);
    expect(created.status).toBe('success');
    const ticket = created.data;
    expect(ticket).toEqual({
      id: expect.stringMatching(/^tkt_/),
      ...newTicket,
      status: 'open',
      comments: [],
      createdAt: expect.any(String),
    });
    expect(await rest('writer', 'GET', `/tickets/${ticket.id}`)).toEqual({ status: 200, body: ticket });

    const overRest = await rest('writer', 'POST', '/tickets', { title: 'Second', body: 'b', requester: { email: 'bo@example.com' } });
    expect(overRest.status).toBe(201);
    expect(overRest.body).toMatchObject({ priority: 'normal', tags: [], status: 'open' });
    expect(await mcp('reader', 'get_ticket', { id: overRest.body.id })).toEqual({ status: 'success', data: overRest.body });

    const firstPage = await rest('reader', 'GET', '/tickets?limit=1');
    expect(firstPage.body).toEqual({ items: [ticket], nextCursor: ticket.id });
    expect(await mcp('reader', 'list_tickets', { limit: 1 })).toEqual({ status: 'success', data: firstPage.body });
    const secondPage = await mcp('reader', 'list_tickets', { limit: 1, cursor: ticket.id });
    expect(secondPage.data).toEqual({ items: [overRest.body], nextCursor: null });
    expect((await rest('reader', 'GET', `/tickets?limit=1&cursor=${ticket.id}`)).body).toEqual(secondPage.data);
    expect((await mcp('reader', 'list_tickets', { priority: 'urgent' })).data.items.map((item: { id: string }) => item.id)).toEqual([
      ticket.id,
    ]);

    const comment = await mcp('writer', 'add_comment', { id: ticket.id, body: 'On it.' });
    expect(comment).toEqual({
      status: 'success',
      data: { id: expect.any(String), body: 'On it.', author: 'wanda', createdAt: expect.any(String) },
    });
    expect((await rest('reader', 'GET', `/tickets/${ticket.id}`)).body.comments).toEqual([comment.data]);

    const closed = await mcp('admin', 'close_ticket', { id: ticket.id, resolution: 'Replaced the printer.' });
    expect(closed.data).toMatchObject({ id: ticket.id, status: 'closed' });
    expect(await rest('admin', 'POST', `/tickets/${ticket.id}/close`, { resolution: 'again' })).toMatchObject({ status: 409 });
    expect(await mcp('admin', 'close_ticket', { id: ticket.id, resolution: 'again' })).toEqual({
      status: 'error',
      error: { code: 'CONFLICT', message: `Ticket ${ticket.id} is already closed`, retryable: false },
    });
  });

  it("refuses and allows as its own guards do over REST: no token, a missing scope, another tenant's ticket", async () => {
    expect((await rest(undefined, 'GET', '/tickets')).status).toBe(401);
    // Over MCP a request without a token never reaches a tool: the endpoint itself answers 401.
    expect((await post(server.url, callTool(1, 'list_tickets'))).status).toBe(401);

    expect(await rest('reader', 'POST', '/tickets', newTicket)).toMatchObject({ status: 403 });
    expect(await mcp('reader', 'create_ticket', newTicket)).toEqual({
      status: 'error',
      error: { code: 'FORBIDDEN', message: 'Forbidden resource', retryable: false },
    });
    const { data: mine } = await mcp('writer', 'create_ticket', newTicket);
    expect(await mcp('writer', 'close_ticket', { id: mine.id, resolution: 'done' })).toMatchObject({ error: { code: 'FORBIDDEN' } });

    expect(await rest('stranger', 'GET', `/tickets/${mine.id}`)).toMatchObject({ status: 404 });
    expect(await mcp('stranger', 'get_ticket', { id: mine.id })).toEqual({
      status: 'error',
      error: { code: 'NOT_FOUND', message: `Ticket ${mine.id} not found`, retryable: false },
    });
    expect(await mcp('stranger', 'add_comment', { id: mine.id, body: 'hi' })).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await mcp('stranger', 'list_tickets', {})).data.items.map((item: { id: string }) => item.id)).not.toContain(mine.id);
  });

  it("answers invalid arguments with ValidationPipe's own messages and the fields they name", async () => {
    const invalid = { title: 'ab', body: '', priority: 'whenever', tags: ['x'.repeat(31)], requester: { email: 'not-an-email' } };
    const overRest = await rest('writer', 'POST', '/tickets', invalid);
    expect(overRest.status).toBe(400);
    const envelope = await mcp('writer', 'create_ticket', invalid);
    expect(envelope).toEqual({
      status: 'error',
      error: {
        code: 'VALIDATION_ERROR',
        // Each of REST's messages under the path it names, as a DTO tool's refusal reads.
        message: `Invalid arguments: ${(overRest.body.message as string[])
          .map((message, index) => `${['title', 'body', 'priority', 'tags', 'requester.email'][index]}: ${message}`)
          .join(', ')}`,
        retryable: false,
        fields: ['title', 'body', 'priority', 'tags', 'requester.email'],
      },
    });
    const query = await mcp('reader', 'list_tickets', { limit: 0 });
    expect(query.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['limit'] });
    expect(query.error!.message).toBe(
      `Invalid arguments: limit: ${((await rest('reader', 'GET', '/tickets?limit=0')).body.message as string[]).join('; ')}`,
    );
  });

  describe('search_tickets, a native tool written with a Zod schema', () => {
    it("shows the Zod schema's JSON Schema: lengths, the status enum, an integer limit with its default", async () => {
      const { tools } = await clients.reader!.listTools();
      const search = tools.find((tool) => tool.name === 'search_tickets')!;
      expect(search.inputSchema).toMatchObject({
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 2, maxLength: 200 },
          status: { type: 'string', enum: ['open', 'closed'] },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        },
        required: ['query'],
      });
      expect(search.annotations).toEqual({ readOnlyHint: true });
    });

    it("finds the tenant's tickets created over REST by title and by body, case-insensitively, and no other tenant's", async () => {
      const created = await rest('writer', 'POST', '/tickets', {
        title: 'Quokka keyboard sticks',
        body: 'The Zebrafish key is STUCK after coffee.',
        requester: { email: 'qa@example.com' },
      });
      expect(created.status).toBe(201);
      const found = { id: created.body.id, title: 'Quokka keyboard sticks', status: 'open' };
      expect(await mcp('reader', 'search_tickets', { query: 'qUOKKA' })).toEqual({ status: 'success', data: { items: [found], total: 1 } });
      expect(await mcp('reader', 'search_tickets', { query: 'zebrafish key is stuck' })).toEqual({
        status: 'success',
        data: { items: [found], total: 1 },
      });
      expect((await mcp('reader', 'search_tickets', { query: 'quokka', status: 'closed' })).data).toEqual({ items: [], total: 0 });

      const theirs = await rest('stranger', 'POST', '/tickets', {
        title: 'Quokka in the server room',
        body: 'Another tenant.',
        requester: { email: 'sam@example.com' },
      });
      expect(theirs.status).toBe(201);
      expect((await mcp('reader', 'search_tickets', { query: 'quokka' })).data).toEqual({ items: [found], total: 1 });
      expect((await mcp('stranger', 'search_tickets', { query: 'QUOKKA' })).data).toEqual({
        items: [{ id: theirs.body.id, title: 'Quokka in the server room', status: 'open' }],
        total: 1,
      });
    });

    it('refuses a one-character query with VALIDATION_ERROR naming query', async () => {
      const envelope = await mcp('reader', 'search_tickets', { query: 'x' });
      expect(envelope).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR', retryable: false, fields: ['query'] } });
    });
  });
});
