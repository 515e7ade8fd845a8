import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { SpawnedWeatherServer } from '../kit/apps.js';
import { ensureBuilt } from '../kit/build.js';
import { INTROSPECTION_CLIENT, MACHINE_CLIENT, OPAQUE_MACHINE_CLIENT, TestAuthorizationServer } from '../kit/authorization-server.js';
import { send } from '../kit/http.js';

/**
 * The built weather server configured by `MCP_OAUTH_*` against a real authorization server (oidc-provider): its
 * RFC 9728 document names the issuer, and the SDK client's client-credentials flow reaches `get_weather` with a JWT
 * access token and, through introspection, with an opaque one.
 */
describe('the built weather server with MCP_OAUTH_ISSUER', () => {
  let as: TestAuthorizationServer;
  let server: SpawnedWeatherServer | undefined;

  beforeAll(async () => {
    await ensureBuilt();
    as = await TestAuthorizationServer.start({
      scopes: ['weather:read', 'weather:write', 'weather:admin'],
      tenantOf: (who) => (who === MACHINE_CLIENT.id ? 'acme' : undefined),
    });
    server = await SpawnedWeatherServer.start({
      MCP_OAUTH_ISSUER: as.issuer,
      MCP_OAUTH_INTROSPECTION_CLIENT_ID: INTROSPECTION_CLIENT.id,
      MCP_OAUTH_INTROSPECTION_CLIENT_SECRET: INTROSPECTION_CLIENT.secret,
    });
  }, 180_000);
  afterAll(async () => {
    if (server && !server.process.hasExited) await server.stop('SIGKILL');
    await as?.close();
  });

  it('/.well-known/oauth-protected-resource/mcp names the issuer and the tools’ scopes', async () => {
    const answer = await send(`${server!.baseUrl}/.well-known/oauth-protected-resource/mcp`, { method: 'GET' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      resource: server!.url,
      authorization_servers: [as.issuer],
      scopes_supported: ['weather:read', 'weather:write'],
    });
  });

  it.each([
    ['a JWT access token', MACHINE_CLIENT],
    ['an opaque access token (introspected)', OPAQUE_MACHINE_CLIENT],
  ])('the SDK client credentials flow with %s calls get_weather', async (_what, credentials) => {
    const provider = new ClientCredentialsProvider({
      clientId: credentials.id,
      clientSecret: credentials.secret,
      scope: 'weather:read',
      expectedIssuer: as.issuer,
    });
    const client = new Client({ name: 'weather-oauth-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server!.url), { authProvider: provider }));
    try {
      const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ status: 'success', data: { city: { name: 'Paris' } } });
    } finally {
      await client.close();
    }
  });
});
