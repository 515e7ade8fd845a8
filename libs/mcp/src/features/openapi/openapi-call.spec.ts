import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MCP_CALLER } from '../../core/caller-headers.js';
import { connectionCaller } from '../../core/mcp-caller.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import { openApiHandler, type OpenApiCallSettings } from './openapi-call.js';
import type { OpenApiOperationPlan } from './openapi-operations.js';
import { OutboundCredential } from '../../auth/outbound/outbound-credential.js';

/** What the API received. */
let received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string };
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/api/moved') return void response.writeHead(303, { location: '/api/items/1/tags' }).end();
      if (request.url === '/api/away') return void response.writeHead(302, { location: 'http://localhost:1/steal' }).end();
      if (request.url === '/api/loop') return void response.writeHead(307, { location: '/api/loop' }).end();
      received = { method: request.method, url: request.url, headers: request.headers, body };
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const plan: OpenApiOperationPlan = {
  name: 'tag_item',
  site: 'OpenAPI "t" tagItem (POST /items/{id}/tags)',
  verb: 'POST',
  path: '/items/{id}/tags',
  description: 'Tag an item',
  inputSchema: { type: 'object' },
  arguments: [
    { name: 'id', in: 'path' },
    { name: 'label', in: 'query' },
    { name: 'X-Trace', in: 'header' },
    { name: 'tags', in: 'body-property' },
    { name: 'note', in: 'body-property' },
  ],
};

function contextOf(callerHeaders?: Record<string, string>): McpToolContext {
  return {
    tenant: 'acme',
    signal: new AbortController().signal,
    [MCP_CALLER]: { ...connectionCaller('memory', undefined), headers: callerHeaders ?? {} },
  } as unknown as McpToolContext;
}

const settings = (more: Partial<OpenApiCallSettings> = {}): OpenApiCallSettings => ({
  baseUrl,
  timeoutMs: 2_000,
  maxResponseBytes: 1_000,
  ...more,
});

describe('openApiHandler', () => {
  it('puts each argument where the operation says: path (encoded), query (repeated for a list), header, JSON body', async () => {
    const handler = openApiHandler(plan, settings());
    const data = await handler({ id: 'a b/c', label: ['x', 'y'], 'X-Trace': 't-1', tags: ['red'] }, contextOf());
    expect(data).toEqual({ ok: true });
    expect(received).toMatchObject({ method: 'POST', url: '/api/items/a%20b%2Fc/tags?label=x&label=y', body: '{"tags":["red"]}' });
    expect(received.headers).toMatchObject({ 'x-trace': 't-1', 'content-type': 'application/json', accept: 'application/json' });
  });

  it("sends the configured headers, per tenant, and the caller's Authorization over them only when forwarding", async () => {
    const headers = ({ tenant }: { tenant: string }) => ({ Authorization: 'Bearer service', 'X-Tenant-Key': `key-${tenant}` });
    await openApiHandler(plan, settings({ headers }))({ id: '1' }, contextOf({ authorization: 'Bearer caller' }));
    expect(received.headers).toMatchObject({ authorization: 'Bearer service', 'x-tenant-key': 'key-acme' });
    expect(received.body).toBe('');

    await openApiHandler(plan, settings({ headers, credential: new OutboundCredential({ forwardAuthorization: true }, 'the API') }))(
      { id: '1' },
      contextOf({ authorization: 'Bearer caller' }),
    );
    expect(received.headers.authorization).toBe('Bearer caller');
  });

  it('refuses a path parameter that is empty or would climb out of the path, and a header value fetch cannot send', async () => {
    const handler = openApiHandler(plan, settings());
    for (const id of ['', '..', '.', '%2E%2e', 'a\ud800'])
      await expect(handler({ id }, contextOf())).rejects.toMatchObject({ code: 'VALIDATION_ERROR', fields: ['id'] });
    for (const trace of ['a\r\nX-Evil: 1', 'a\u0000', 'a\u0008', 'a\u007f', 'Ω'])
      await expect(handler({ id: '1', 'X-Trace': trace }, contextOf())).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: ['X-Trace'],
      });
  });

  it('follows a redirect within the API (303: as a GET) and not one to another origin, whose headers would leave with it', async () => {
    const moved = { ...plan, path: '/moved', arguments: [] };
    expect(await openApiHandler(moved, settings())({}, contextOf())).toEqual({ ok: true });
    expect(received).toMatchObject({ method: 'GET', url: '/api/items/1/tags' });
    const away = { ...plan, path: '/away', arguments: [] };
    await expect(openApiHandler(away, settings({ headers: { 'X-API-Key': 'k' } }))({}, contextOf())).rejects.toThrow(
      'The route answered HTTP 302',
    );
    const loop = { ...plan, path: '/loop', arguments: [] };
    await expect(openApiHandler(loop, settings())({}, contextOf())).rejects.toThrow('The route answered HTTP 307');
  });
});
