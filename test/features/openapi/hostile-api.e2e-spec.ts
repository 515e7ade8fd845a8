import { McpModule, type McpModuleForRootOptions, type McpOpenApiSource } from '@nest-mcp/core';
import { initApp } from '../../kit/apps.js';
import { bootError } from '../../kit/boot-mcp.js';
import { envelopeOf } from '../../kit/http.js';
import { listenWithSdkClient, type AppWithSdkClient } from '../../kit/sdk-client.js';
import { startHostileApi, type HostileApi } from './hostile-api.js';

/**
 * OpenAPI sources against an API that does not play fair: every request it receives is recorded, so each case says
 * both what the caller was answered and that nothing left for the API (or for another origin) that should not.
 */

const info = { title: 'Hostile', version: '1.0.0' };
const ok = { '200': { description: 'ok' } };

/** `GET /items/` is left out by `include`; `GET /items/{id}` with an empty id would reach it. */
const ITEMS_DOCUMENT = {
  openapi: '3.1.0',
  info,
  paths: {
    '/items/': { get: { operationId: 'listItems', responses: ok } },
    '/items/{id}': {
      get: {
        operationId: 'getItem',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'X-Note', in: 'header', schema: { type: 'string' } },
        ],
        responses: ok,
      },
    },
  },
};

/** A schema of 8 properties nested `levels` deep, each level a shared `$ref` to the next: 8^levels leaves once inlined. */
function nestedDocument(levels: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = { [`L${levels}`]: { type: 'string', minLength: 1 } };
  for (let level = levels - 1; level >= 0; level--) {
    const properties = Object.fromEntries(
      Array.from({ length: 8 }, (_, index) => [`p${index}`, { $ref: `#/components/schemas/L${level + 1}` }]),
    );
    schemas[`L${level}`] = { type: 'object', properties };
  }
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  return {
    openapi: '3.1.0',
    info,
    paths: {
      '/trees': {
        post: {
          operationId: 'plantTree',
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/L0' }) },
          responses: { '200': { description: 'ok', ...json({ $ref: '#/components/schemas/L0' }) } },
        },
      },
    },
    components: { schemas },
  };
}

const mcpOptions = (source: McpOpenApiSource): McpModuleForRootOptions => ({
  name: 'hostile',
  version: '1.0.0',
  sources: { openapi: [source] },
});
const bootFailure = (source: McpOpenApiSource) => bootError(() => initApp([McpModule.forRoot(mcpOptions(source))]));

describe('OpenAPI sources against a hostile API', () => {
  let api: HostileApi;
  let elsewhere: HostileApi;

  beforeEach(async () => {
    [api, elsewhere] = await Promise.all([startHostileApi(), startHostileApi()]);
  });
  afterEach(async () => {
    await Promise.all([api?.close(), elsewhere?.close()]);
  });

  describe('arguments that would change the request', () => {
    let served: AppWithSdkClient;
    beforeEach(async () => {
      served = await listenWithSdkClient(
        mcpOptions({
          name: 'shop',
          document: ITEMS_DOCUMENT,
          baseUrl: api.origin,
          include: { operations: ['getItem'] },
          headers: { 'X-API-Key': 'shop-secret' },
        }),
        [],
      );
    });
    afterEach(() => served?.close());

    const call = async (args: Record<string, unknown>) =>
      envelopeOf((await served.client.callTool({ name: 'shop_get_item', arguments: args })) as never);

    it('refuses an empty path parameter (GET /items/ is an operation include left out) before any request', async () => {
      for (const id of ['', '.', '..']) {
        const { error } = await call({ id });
        expect(error).toMatchObject({ code: 'VALIDATION_ERROR', retryable: false, fields: ['id'] });
        expect(error.message).toContain('id');
      }
      expect(api.received).toEqual([]);
      expect(await call({ id: 'a1' })).toMatchObject({ status: 'success', data: { ok: true } });
      expect(api.received.map((request) => request.url)).toEqual(['/items/a1']);
    });

    it('refuses a header value with a control character or non-Latin-1 text as VALIDATION_ERROR, not a retryable UNAVAILABLE', async () => {
      for (const note of ['a\u0001b', 'a\u007fb', '日本', 'line\r\nX-Evil: 1']) {
        const { error } = await call({ id: 'a1', 'X-Note': note });
        expect(error).toMatchObject({ code: 'VALIDATION_ERROR', retryable: false, fields: ['X-Note'] });
      }
      expect(api.received).toEqual([]);
      expect(await call({ id: 'a1', 'X-Note': 'café\tau lait' })).toMatchObject({ status: 'success' });
      expect(api.received[0].headers['x-note']).toBe('café\tau lait');
    });
    it('never shows the caller the API key it was sent when the API repeats it in a refusal', async () => {
      for (const [id, status] of [
        ['denied', 401],
        ['invalid', 400],
      ] as const) {
        api.serve(`/items/${id}`, { refuse: status });
        const { error } = await call({ id });
        expect(error.message).toContain('Rejected key');
        expect(JSON.stringify(error)).not.toContain('shop-secret');
      }
    });
  });

  describe('a document fetched from a URL', () => {
    it("refuses at boot a servers URL on another origin than the document's: forwarded tokens and keys would go there", async () => {
      api.serve('/openapi.json', { json: { ...ITEMS_DOCUMENT, servers: [{ url: `${elsewhere.origin}/v1` }] } });
      const error = await bootFailure({ name: 'shop', document: `${api.origin}/openapi.json`, headers: { 'X-API-Key': 'shop-secret' } });
      expect(error).toMatchObject({ code: 'MCP_ERR_OPENAPI_SERVERS_ORIGIN' });
      expect(error.message).toContain(`${elsewhere.origin}/v1`);
      expect(error.message).toContain(api.origin);
      expect(error.message).not.toContain('shop-secret');
      expect(elsewhere.received).toEqual([]);
    });

    it('sends the calls to the other origin when baseUrl names it, and to a servers URL on the same origin', async () => {
      api.serve('/openapi.json', { json: { ...ITEMS_DOCUMENT, servers: [{ url: `${elsewhere.origin}/v1` }] } });
      const named = await listenWithSdkClient(
        mcpOptions({ name: 'shop', document: `${api.origin}/openapi.json`, baseUrl: `${elsewhere.origin}/v1` }),
        [],
      );
      try {
        await named.client.callTool({ name: 'shop_get_item', arguments: { id: 'a1' } });
        expect(elsewhere.received.map((request) => request.url)).toEqual(['/v1/items/a1']);
      } finally {
        await named.close();
      }

      api.serve('/same.json', {
        json: { ...ITEMS_DOCUMENT, servers: [{ url: 'http://[::1' }, { url: '/v2' }, { url: `${elsewhere.origin}/v1` }] },
      });
      const same = await listenWithSdkClient(mcpOptions({ name: 'shop', document: `${api.origin}/same.json` }), []);
      try {
        await same.client.callTool({ name: 'shop_get_item', arguments: { id: 'a2' } });
        expect(api.received.map((request) => request.url)).toContain('/v2/items/a2');
      } finally {
        await same.close();
      }
    });

    it('follows a redirect within the origin, not one to another origin, and names a loop as one', async () => {
      api.serve('/openapi.json', { json: ITEMS_DOCUMENT });
      api.serve('/moved', { redirect: '/openapi.json', status: 301 });
      const moved = await listenWithSdkClient(mcpOptions({ document: `${api.origin}/moved` }), []);
      await moved.close();

      elsewhere.serve('/openapi.json', { json: { ...ITEMS_DOCUMENT, servers: [{ url: elsewhere.origin }] } });
      api.serve('/away', { redirect: `${elsewhere.origin}/openapi.json` });
      const away = await bootFailure({ document: `${api.origin}/away` });
      expect(away).toMatchObject({ code: 'MCP_ERR_OPENAPI_REDIRECT' });
      expect(away.message).toContain(`another origin (${elsewhere.origin})`);
      expect(elsewhere.received).toEqual([]);

      api.serve('/loop-a', { redirect: '/loop-b' });
      api.serve('/loop-b', { redirect: `${api.origin}/loop-a` });
      const loop = await bootFailure({ document: `${api.origin}/loop-a` });
      expect(loop).toMatchObject({ code: 'MCP_ERR_OPENAPI_REDIRECT' });
      expect(loop.message).toContain('a redirect loop');
      expect(loop.message).not.toContain('the connection failed');
    });
  });

  describe('shared $refs nested deep', () => {
    it('keeps them once under $defs: a 2 KB document of 8 properties nested 6 levels boots, lists, validates and calls', async () => {
      const document = nestedDocument(6);
      expect(JSON.stringify(document).length).toBeLessThan(4 * 1024);
      const served = await listenWithSdkClient(mcpOptions({ name: 'garden', document, baseUrl: api.origin }), []);
      try {
        const { tools } = await served.client.listTools();
        const tool = tools.find((candidate) => candidate.name === 'garden_plant_tree')!;
        expect(JSON.stringify(tool).length).toBeLessThan(16 * 1024);
        expect(Object.keys(tool.inputSchema.properties!)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
        expect(tool.inputSchema.$defs).toBeDefined();

        const leaf = { p3: 'x' };
        const deep = { p0: { p1: { p2: { p3: { p4: leaf } } } } };
        const sent = envelopeOf((await served.client.callTool({ name: 'garden_plant_tree', arguments: deep })) as never);
        expect(sent).toEqual({ status: 'success', data: { ok: true } });
        expect(JSON.parse(api.received[0].body)).toEqual(deep);

        const wrong = { p0: { p1: { p2: { p3: { p4: { p3: '' } } } } } };
        const refused = envelopeOf((await served.client.callTool({ name: 'garden_plant_tree', arguments: wrong })) as never);
        expect(refused.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['p0.p1.p2.p3.p4.p3'] });
        expect(api.received).toHaveLength(1);
      } finally {
        await served.close();
      }
    });
  });
});
