import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpModule } from '@nest-mcp/core';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { initApp, listenMcp, type RunningApp } from '../../kit/apps.js';
import { MACHINE_CLIENT, TestAuthorizationServer, TOKEN_EXCHANGE_GRANT } from '../../kit/authorization-server.js';
import { freePort } from '../../kit/redis-server.harness.js';

/**
 * An OpenAPI source's HTTP API called on behalf of the MCP caller with a token exchanged for it (RFC 8693, a real
 * oidc-provider), or as this server (client credentials). The API verifies each token against the provider's JWKS
 * and accepts only its own audience, so the caller's token (audience: this server) would be refused.
 */

const GATEWAY_CLIENT = { id: 'assistant', secret: 'assistant-secret-0123456789abcdef' };

interface WhoAmIApi {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** `GET /whoami`: 401 unless the Bearer token is a JWT of `issuer` for this API; else who it names and who acts. */
async function startApi(issuer: string): Promise<WhoAmIApi> {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const holder: { baseUrl?: string } = {};
  const server: Server = createServer((request, response) => {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const answer = (status: number, body: unknown) =>
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (request.url !== '/whoami' || !token) return answer(401, { message: 'Unauthorized' });
    jwtVerify(token, jwks, { issuer, audience: holder.baseUrl }).then(
      ({ payload }) => answer(200, { subject: payload.sub, actor: (payload.act as { sub?: string } | undefined)?.sub ?? null }),
      () => answer(401, { message: 'Unauthorized' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  holder.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: holder.baseUrl,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const document = (baseUrl: string) => ({
  openapi: '3.0.3',
  info: { title: 'whoami', version: '1.0.0' },
  servers: [{ url: baseUrl }],
  paths: { '/whoami': { get: { operationId: 'whoami', responses: { '200': { description: 'who the token names' } } } } },
});

type Envelope = { status: string; data?: any; error?: { code: string; message: string } };

describe('OpenAPI source credentials: token exchange on behalf of the caller, client credentials as this server', () => {
  let as: TestAuthorizationServer;
  let api: WhoAmIApi;
  let app: RunningApp;
  let caller: Client;
  let callerToken: string;
  let resource: string;

  beforeAll(async () => {
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    as = await TestAuthorizationServer.start({
      scopes: ['tickets:read'],
      clients: [
        {
          client_id: GATEWAY_CLIENT.id,
          client_secret: GATEWAY_CLIENT.secret,
          grant_types: ['client_credentials', TOKEN_EXCHANGE_GRANT],
          response_types: [],
          redirect_uris: [],
          scope: 'tickets:read',
        },
      ],
      tokenExchange: { clients: [GATEWAY_CLIENT.id], subjectAudience: resource },
    });
    api = await startApi(as.issuer);
    const client = { issuer: as.issuer, clientId: GATEWAY_CLIENT.id, clientSecret: GATEWAY_CLIENT.secret, resource: api.baseUrl };
    app = await listenMcp(
      {
        name: 'assistant',
        version: '1.0.0',
        auth: { oauth: { issuer: as.issuer, resource } },
        sources: {
          openapi: [
            { name: 'onbehalf', document: document(api.baseUrl), auth: { tokenExchange: client } },
            {
              name: 'itself',
              document: document(api.baseUrl),
              auth: { clientCredentials: { ...client, clientAuthMethod: 'client_secret_post' } },
            },
          ],
        },
      },
      [],
      { port },
    );
    callerToken = (await as.clientCredentials(MACHINE_CLIENT, resource, 'tickets:read')).access_token;
    caller = new Client({ name: 'openapi-exchange-e2e', version: '1.0.0' });
    await caller.connect(
      new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: { Authorization: `Bearer ${callerToken}` } } }),
    );
  }, 60_000);
  afterAll(async () => {
    await caller?.close();
    await app?.close();
    await api?.close();
    await as?.close();
  });

  const call = async (name: string) => (await caller.callTool({ name, arguments: {} })).structuredContent as Envelope;

  it('the API refuses the caller’s own token (its audience is the MCP server)', async () => {
    const response = await fetch(`${api.baseUrl}/whoami`, { headers: { Authorization: `Bearer ${callerToken}` } });
    expect(response.status).toBe(401);
  });

  it('calls the API with a token exchanged for the caller’s: the caller as subject, this server acting', async () => {
    expect(await call('onbehalf_whoami')).toEqual({ status: 'success', data: { subject: MACHINE_CLIENT.id, actor: GATEWAY_CLIENT.id } });
  });

  it('calls the API as this server with client credentials', async () => {
    expect(await call('itself_whoami')).toEqual({ status: 'success', data: { subject: GATEWAY_CLIENT.id, actor: null } });
  });

  it('refuses to boot when the caller’s auth.oauth token would be forwarded to the API (MCP_ERR_TOKEN_PASSTHROUGH)', async () => {
    const error = await initApp([
      McpModule.forRoot({
        name: 'forwarding',
        version: '1.0.0',
        auth: { oauth: { issuer: as.issuer, resource } },
        sources: { openapi: [{ document: document(api.baseUrl), forwardAuthorization: true }] },
      }),
    ]).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'MCP_ERR_TOKEN_PASSTHROUGH' });
    expect((error as Error).message).toContain('sources.openapi[0].forwardAuthorization');
  });
});
