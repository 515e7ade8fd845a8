import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { OAuthResourceServer } from './oauth-resource-server.js';

/**
 * An authorization server whose metadata lists no `jwks_uri` (introspection only, as some gateways do): the
 * e2e suite's oidc-provider always has one, so this case is driven by a loopback stub.
 */
let server: Server;
let issuer: string;
let metadata: Record<string, unknown> = {};
const introspected: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/introspect') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        introspected.push(new URLSearchParams(body).get('token') ?? '');
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ active: true, sub: 'ada', aud: 'https://mcp.example.com/mcp', scope: 'a b' }));
      });
      return;
    }
    if (request.url === '/.well-known/oauth-authorization-server') {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      return void response.end(JSON.stringify(metadata));
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const resourceServer = (introspection = true) =>
  new OAuthResourceServer(
    {
      issuer,
      resource: 'https://mcp.example.com/mcp',
      ...(introspection && { introspection: { clientId: 'rs', clientSecret: 'secret' } }),
    },
    (resource) => resource,
  );

describe('OAuthResourceServer without a jwks_uri', () => {
  beforeEach(() => {
    metadata = { issuer, introspection_endpoint: `${issuer}/introspect` };
  });

  it('introspects a JWT-shaped token too', async () => {
    const subject = resourceServer();
    await subject.start();
    const principal = await subject.verifyJwt('aaa.bbb.ccc');
    expect(principal).toMatchObject({ subject: 'ada', tenant: 'ada', scopes: ['a', 'b'] });
    expect(introspected).toContain('aaa.bbb.ccc');
  });

  it('without introspection configured, nothing could verify a token: MCP_ERR_OAUTH_METADATA_UNUSABLE', async () => {
    const error = await resourceServer(false)
      .start()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as McpConfigurationError).code).toBe('MCP_ERR_OAUTH_METADATA_UNUSABLE');
  });

  it('introspection configured but no introspection_endpoint: MCP_ERR_OAUTH_METADATA_UNUSABLE', async () => {
    metadata = { issuer, jwks_uri: `${issuer}/jwks` };
    const error = await resourceServer()
      .start()
      .catch((caught: unknown) => caught);
    expect((error as McpConfigurationError).code).toBe('MCP_ERR_OAUTH_METADATA_UNUSABLE');
  });
});
