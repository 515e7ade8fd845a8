import type { AddressInfo } from 'node:net';
import { Module, VersioningType, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpModule } from '@nest-mcp/core';
import { createTestApp } from '../kit/http-adapter.js';
import { ADAPTER_API_KEY, AdapterTools, adapterFixtureOptions } from '../fixtures/http-adapter-tools.js';
import type { HttpAdapterName } from '../kit/apps.js';
import { envelopeOf, initializeRequest, post, send } from '../kit/http.js';
import { endpointOf, openSse } from '../kit/sse.js';

/**
 * `app.setGlobalPrefix('api')` on both adapters: every URL the server hands out carries the prefix and resolves
 * (fetched, not 404): the 2024-11-05 `endpoint` event, a job's `poll_url`, the 401's `resource_metadata` and the
 * document's `resource`, the Server Card's remotes, the explorer page's endpoint. URI versioning with a
 * `defaultVersion` leaves the MCP routes where they are (they are version-neutral).
 */

const KEY = { 'X-API-Key': ADAPTER_API_KEY };

interface PrefixedApp {
  app: INestApplication;
  base: string;
}

/** The fixture under `prefix`, optionally with URI versioning (`defaultVersion: '1'`), listening on a random port. */
async function start(adapter: HttpAdapterName, prefix: string, options: { versioning?: boolean } = {}): Promise<PrefixedApp> {
  @Module({
    imports: [McpModule.forRoot(adapterFixtureOptions('http://127.0.0.1/mcp', { explorer: { enabled: true } }))],
    providers: [AdapterTools],
  })
  class PrefixSuiteModule {}
  const moduleRef = await Test.createTestingModule({ imports: [PrefixSuiteModule] }).compile();
  const app = createTestApp(moduleRef, { logger: false, forceCloseConnections: true }, adapter);
  app.setGlobalPrefix(prefix);
  if (options.versioning) app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  return { app, base: `http://127.0.0.1:${port}` };
}

/** Fetches a handed-out URL (absolute, or a path on the server) and answers its status; the body is not waited for (a stream stays open). */
async function statusOf(server: PrefixedApp, url: string, init: RequestInit = {}): Promise<number> {
  const absolute = new URL(url, server.base);
  const onServer = new URL(`${absolute.pathname}${absolute.search}`, server.base);
  const response = await fetch(onServer, init);
  await response.body?.cancel();
  return response.status;
}

describe.each<HttpAdapterName>(['express', 'fastify'])('global prefix on the %s adapter', (adapter) => {
  let server: PrefixedApp;

  beforeAll(async () => {
    server = await start(adapter, 'api');
  });

  afterAll(async () => {
    await server?.app.close();
  });

  it('serves MCP under the prefix, and not without it', async () => {
    expect((await post(`${server.base}/api/mcp`, initializeRequest(), KEY)).status).toBe(200);
    expect((await post(`${server.base}/mcp`, initializeRequest(), KEY)).status).toBe(404);
  });

  it('hands out a 2024-11-05 endpoint URL under the prefix, which the SDK SSE client then uses', async () => {
    const stream = await openSse(`${server.base}/api/sse`, KEY);
    try {
      expect(new URL(endpointOf(stream.firstEvent)).pathname).toBe('/api/messages');
    } finally {
      stream.close();
    }
    const client = new Client({ name: 'prefix-sse', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(`${server.base}/api/sse`), { requestInit: { headers: KEY } }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    } finally {
      await client.close();
    }
  });

  it("hands out a job's poll_url under the prefix, and it answers", async () => {
    const client = new Client({ name: 'prefix-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/api/mcp`), { requestInit: { headers: KEY } }));
    try {
      const pending = envelopeOf((await client.callTool({ name: 'report', arguments: { text: 'Oslo' } })) as never);
      expect(pending.data.poll_url).toMatch(/^\/api\/mcp\/jobs\//);
      expect(await statusOf(server, pending.data.poll_url, { headers: KEY })).toBe(200);
    } finally {
      await client.close();
    }
  });

  it("points the 401's resource_metadata at the document, whose resource is the prefixed endpoint", async () => {
    const refused = await post(`${server.base}/api/mcp`, initializeRequest());
    expect(refused.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe('http://127.0.0.1/api/.well-known/oauth-protected-resource/mcp');
    const document = await send(`${server.base}${new URL(metadataUrl!).pathname}`, { method: 'GET' });
    expect(document.status).toBe(200);
    expect(document.json).toMatchObject({ resource: 'http://127.0.0.1/api/mcp' });
  });

  it("lists the Server Card's remotes under the prefix, and they resolve", async () => {
    const card = await send(`${server.base}/api/.well-known/mcp/server-card.json`, { method: 'GET' });
    expect(card.status).toBe(200);
    const remotes = (card.json as { remotes: { type: string; url: string }[] }).remotes;
    expect(remotes.map((remote) => new URL(remote.url).pathname)).toEqual(['/api/mcp', '/api/sse']);
    for (const remote of remotes) {
      expect(await statusOf(server, remote.url, { headers: { ...KEY, Accept: 'text/event-stream' } })).toBe(200);
    }
  });

  it('serves the explorer under the prefix, naming the prefixed endpoint its calls reach', async () => {
    const page = await send(`${server.base}/api/mcp/explorer`, { method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('endpoint /api/mcp');
    const endpoint = /"endpoint":"([^"]+)"/.exec(page.text)?.[1];
    expect(endpoint).toBeDefined();
    expect(new URL(endpoint!, `${server.base}/api/mcp/explorer`).pathname).toBe('/api/mcp');
    expect((await send(`${server.base}/api/mcp/explorer/app-frame`, { method: 'GET' })).status).toBe(200);
  });
});

describe.each<HttpAdapterName>(['express', 'fastify'])('URI versioning with a defaultVersion on the %s adapter', (adapter) => {
  let server: PrefixedApp;

  beforeAll(async () => {
    server = await start(adapter, 'api', { versioning: true });
  });

  afterAll(async () => {
    await server?.app.close();
  });

  it('leaves the MCP routes version-neutral: /api/mcp answers, and the handed-out URLs match it', async () => {
    expect((await post(`${server.base}/api/mcp`, initializeRequest(), KEY)).status).toBe(200);
    const stream = await openSse(`${server.base}/api/sse`, KEY);
    try {
      expect(new URL(endpointOf(stream.firstEvent)).pathname).toBe('/api/messages');
    } finally {
      stream.close();
    }
  });
});
