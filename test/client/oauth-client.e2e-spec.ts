import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient, McpClientError } from '@nest-mcp/core';
import {
  authorizeOverHttp,
  MACHINE_CLIENT,
  PUBLIC_CLIENT,
  PUBLIC_REDIRECT_URI,
  TestAuthorizationServer,
} from '../kit/authorization-server.js';
import { listen, type RunningApp } from '../kit/apps.js';
import { startOAuthProtectedApp } from '../oauth/oauth-protected-app.js';
import { recordingTokenStore } from '../kit/recording-token-store.js';
import { freePort } from '../kit/redis-server.harness.js';
import { SecFixtureModule } from '../security/fixtures/sec-app.js';

/**
 * McpClient as an OAuth 2.1 client against a server of this library protected by `auth.oauth`, with the certified
 * oidc-provider as its authorization server: the server's 401, RFC 9728 then OpenID discovery, a token bound to the
 * server (RFC 8707), the call sent again. The user's login and consent are played over HTTP.
 */

let as: TestAuthorizationServer;
let app: RunningApp;
beforeAll(async () => {
  ({ as, app } = await startOAuthProtectedApp());
});
afterAll(async () => {
  await app?.close();
  await as?.close();
});

async function whoami(client: McpClient): Promise<Record<string, unknown>> {
  const result = await client.callTool('whoami');
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { data: Record<string, unknown> }).data;
}

/** The machine client on the client-credentials grant, asking for `sec:read`. */
function machineClient(url: string, tokens?: { store: ReturnType<typeof recordingTokenStore>; encryptionKey: string }): McpClient {
  return new McpClient({
    url,
    protocol: 'legacy',
    reconnect: false,
    auth: {
      grant: { type: 'client_credentials' },
      client: { clientId: MACHINE_CLIENT.id, clientSecret: MACHINE_CLIENT.secret },
      scope: 'sec:read',
      allowInsecureHttp: true,
      ...(tokens && { tokens }),
    },
  });
}

describe('McpClient with auth (oidc-provider)', () => {
  it('client credentials: 401 → metadata → a token for this server → the call, and the token kept encrypted', async () => {
    const store = recordingTokenStore();
    const client = machineClient(app.url, { store, encryptionKey: 'a key of the deployment, from its secrets' });
    try {
      expect(await whoami(client)).toEqual({ tenant: 'acme', subject: MACHINE_CLIENT.id, scopes: ['sec:read'] });
      // A second call reuses the token: one client-credentials grant only.
      expect((await client.callTool('read_thing')).isError).toBeFalsy();
      const stored = JSON.stringify([...store.values.values()]);
      expect(store.values.size).toBe(1);
      expect(stored).not.toContain('eyJ'); // no JWT in the clear
      expect(stored).toContain('"tag"');
    } finally {
      await client.close();
    }
  });

  it('client credentials over the 2024-11-05 HTTP+SSE transport: the stream and every message carry the token', async () => {
    // The SSE URL's resource is the MCP endpoint beside it, which the server's metadata names.
    const client = machineClient(new URL('/sse', app.url).href);
    try {
      expect(await whoami(client)).toEqual({ tenant: 'acme', subject: MACHINE_CLIENT.id, scopes: ['sec:read'] });
    } finally {
      await client.close();
    }
  });

  it('authorization code + PKCE on the 2026-07-28 era: the user signs in, the client calls as that user', async () => {
    const seen: URL[] = [];
    const client = new McpClient({
      url: app.url,
      protocol: 'auto',
      reconnect: false,
      auth: {
        grant: {
          type: 'authorization_code',
          redirectUri: PUBLIC_REDIRECT_URI,
          authorize: async (url) => (seen.push(url), authorizeOverHttp(url.href, PUBLIC_REDIRECT_URI, 'alice')),
        },
        client: { clientId: PUBLIC_CLIENT.id, tokenEndpointAuthMethod: 'none' },
        allowInsecureHttp: true,
      },
    });
    try {
      expect(await whoami(client)).toEqual({ tenant: 'alice-corp', subject: 'alice', scopes: ['sec:read', 'sec:write'] });
      expect(client.server?.protocolVersion).toBe('2026-07-28');
      expect(seen).toHaveLength(1);
      expect(seen[0].origin).toBe(as.issuer);
      expect(seen[0].searchParams.get('code_challenge_method')).toBe('S256');
      expect(seen[0].searchParams.get('resource')).toBe(app.url);
    } finally {
      await client.close();
    }
  });

  it('fails with AUTH, naming no secret, when the authorization server refuses the client', async () => {
    const client = new McpClient({
      url: app.url,
      protocol: 'legacy',
      reconnect: false,
      auth: {
        grant: { type: 'client_credentials' },
        client: { clientId: MACHINE_CLIENT.id, clientSecret: 'not-the-secret-0123456789' },
        allowInsecureHttp: true,
      },
    });
    try {
      const error = (await client.connect().catch((caught: unknown) => caught)) as McpClientError;
      expect(error).toBeInstanceOf(McpClientError);
      expect(error.code).toBe('AUTH');
      expect(error.message).not.toContain('not-the-secret');
    } finally {
      await client.close();
    }
  });

  it('refuses options that cannot work with CONFIG', () => {
    expect(() => new McpClient({ url: app.url, auth: { grant: { type: 'client_credentials' } } })).toThrow(
      expect.objectContaining({ code: 'CONFIG' }),
    );
    expect(
      () =>
        new McpClient({
          url: app.url,
          auth: { grant: { type: 'client_credentials' }, client: { clientId: 'x' }, tokens: { store: recordingTokenStore() } },
        }),
    ).toThrow(expect.objectContaining({ code: 'CONFIG' }));
  });
});

describe('McpClient with auth, against an authorization server whose token answer is too large', () => {
  it('fails with AUTH when the token endpoint answers more than 64 KiB, naming no part of the answer', async () => {
    const huge = `oversized-${'x'.repeat(70 * 1024)}`;
    const issuer = { url: '' };
    // A plain OAuth 2.0 server on loopback: metadata and keys for the resource server's boot, and a token endpoint
    // that answers 70 KiB.
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', issuer.url).pathname;
      const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/.well-known/oauth-authorization-server') {
        return json({ issuer: issuer.url, token_endpoint: `${issuer.url}/token`, jwks_uri: `${issuer.url}/jwks` });
      }
      if (path === '/jwks') return json({ keys: [] });
      if (path === '/token' && request.method === 'POST') {
        return request.resume().on('end', () => json({ access_token: huge, token_type: 'Bearer', expires_in: 600 }));
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let protectedApp: RunningApp | undefined;
    let client: McpClient | undefined;
    try {
      const port = await freePort();
      const oauth = { issuer: issuer.url, resource: `http://127.0.0.1:${port}/mcp` };
      protectedApp = await listen([SecFixtureModule.with({ auth: { oauth } })], { port });
      client = machineClient(protectedApp.url);
      const error = (await client.connect().catch((caught: unknown) => caught)) as McpClientError;
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ code: 'AUTH', message: expect.stringContaining(issuer.url) });
      expect(error.message).not.toContain('oversized');
    } finally {
      await client?.close();
      await protectedApp?.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
