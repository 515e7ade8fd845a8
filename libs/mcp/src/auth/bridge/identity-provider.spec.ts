import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { IdentityProvider } from './identity-provider.js';

const client = { clientId: 'bridge', clientSecret: 'secret' };

describe('IdentityProvider.start (boot)', () => {
  it('an unreachable provider is MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNREACHABLE, naming no secret', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
    const error = await new IdentityProvider({ issuer, ...client }, 1_000).start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error).toMatchObject({ code: 'MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNREACHABLE' });
    expect(String((error as Error).message)).not.toContain('secret');
  });

  it('a document for another issuer, or without a token endpoint, is MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNUSABLE', async () => {
    let document: Record<string, unknown> = {};
    const server = createServer((_request, response) =>
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(document)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      document = { issuer: 'https://elsewhere.example' };
      await expect(new IdentityProvider({ issuer, ...client }, 1_000).start()).rejects.toMatchObject({
        code: 'MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNUSABLE',
      });
      document = { issuer, authorization_endpoint: `${issuer}/auth` };
      await expect(new IdentityProvider({ issuer, ...client }, 1_000).start()).rejects.toMatchObject({
        code: 'MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNUSABLE',
      });
      document = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token` };
      await expect(new IdentityProvider({ issuer, ...client }, 1_000).start()).resolves.toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
