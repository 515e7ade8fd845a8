import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Injectable } from '@nestjs/common';
import { McpContext, McpModule, McpTool, type McpToolContext } from '@nest-mcp/core';
import { initApp, listenMcp, type RunningApp } from '../../kit/apps.js';
import { MACHINE_CLIENT, TestAuthorizationServer, TOKEN_EXCHANGE_GRANT } from '../../kit/authorization-server.js';
import { freePort } from '../../kit/redis-server.harness.js';

/**
 * The gateway calls an upstream on behalf of its caller with a token issued for the upstream (OAuth 2.0 Token
 * Exchange, RFC 8693, at a real oidc-provider), or as itself (client credentials); never with the caller's own token,
 * whose audience is the gateway. The upstream is an MCP server of this library with `auth.oauth`: it accepts only
 * tokens whose audience is its own resource, and answers who the token names.
 */

const GATEWAY_CLIENT = { id: 'gateway', secret: 'gateway-secret-0123456789abcdef' };
/** A second caller, and one whose tokens the authorization server will not exchange. */
const OTHER_CLIENT = { id: 'machine-2', secret: 'machine-2-secret-0123456789abcdef' };
const BLOCKED_CLIENT = { id: 'machine-blocked', secret: 'machine-blocked-secret-0123456789' };

@Injectable()
class WhoAmITools {
  @McpTool({ name: 'whoami', description: 'Who the token of this call names, and who acts for them' })
  whoami(@McpContext() context: McpToolContext): { subject: string | null; actor: string | null; audience: unknown } {
    const claims = context.principal?.claims ?? {};
    return {
      subject: context.principal?.subject ?? null,
      actor: (claims.act as { sub?: string } | undefined)?.sub ?? null,
      audience: claims.aud,
    };
  }
}

type Envelope = { status: string; data?: any; error?: { code: string; message: string } };

async function connect(url: string, bearer: string): Promise<Client> {
  const client = new Client({ name: 'token-exchange-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
  );
  return client;
}

async function call(client: Client, name: string): Promise<Envelope> {
  return (await client.callTool({ name, arguments: {} })).structuredContent as Envelope;
}

describe('gateway → upstream credentials: token exchange on behalf of the caller, client credentials as itself', () => {
  let as: TestAuthorizationServer;
  let upstream: RunningApp;
  let gateway: RunningApp;
  let gatewayResource: string;
  const opened: Client[] = [];
  const tokens: Record<'machine' | 'other' | 'blocked', string> = { machine: '', other: '', blocked: '' };

  beforeAll(async () => {
    const [gatewayPort, upstreamPort] = await Promise.all([freePort(), freePort()]);
    gatewayResource = `http://127.0.0.1:${gatewayPort}/mcp`;
    const upstreamResource = `http://127.0.0.1:${upstreamPort}/mcp`;
    const machineClient = (client: { id: string; secret: string }, grants = ['client_credentials']) => ({
      client_id: client.id,
      client_secret: client.secret,
      grant_types: grants,
      response_types: [],
      redirect_uris: [],
      scope: 'notes:read',
    });
    as = await TestAuthorizationServer.start({
      scopes: ['notes:read'],
      tenantOf: () => 'acme',
      clients: [
        machineClient(GATEWAY_CLIENT, ['client_credentials', TOKEN_EXCHANGE_GRANT]),
        machineClient(OTHER_CLIENT),
        machineClient(BLOCKED_CLIENT),
      ],
      tokenExchange: { clients: [GATEWAY_CLIENT.id], subjectAudience: gatewayResource, refusedSubjectClients: [BLOCKED_CLIENT.id] },
    });
    upstream = await listenMcp(
      { name: 'notes', version: '1.0.0', auth: { oauth: { issuer: as.issuer, resource: upstreamResource } } },
      [WhoAmITools],
      {
        port: upstreamPort,
      },
    );
    const client = {
      issuer: as.issuer,
      clientId: GATEWAY_CLIENT.id,
      clientSecret: GATEWAY_CLIENT.secret,
      resource: upstreamResource,
      scopes: ['notes:read'],
    };
    gateway = await listenMcp(
      {
        name: 'gateway',
        version: '1.0.0',
        auth: { oauth: { issuer: as.issuer, resource: gatewayResource } },
        sources: {
          upstreams: [
            { name: 'notes', url: upstream.url, auth: { tokenExchange: client } },
            { name: 'itself', url: upstream.url, auth: { clientCredentials: client } },
          ],
        },
      },
      [],
      { port: gatewayPort },
    );
    tokens.machine = (await as.clientCredentials(MACHINE_CLIENT, gatewayResource, 'notes:read')).access_token;
    tokens.other = (await as.clientCredentials(OTHER_CLIENT, gatewayResource, 'notes:read')).access_token;
    tokens.blocked = (await as.clientCredentials(BLOCKED_CLIENT, gatewayResource, 'notes:read')).access_token;
  }, 60_000);
  afterAll(async () => {
    for (const client of opened) await client.close();
    await gateway?.close();
    await upstream?.close();
    await as?.close();
  });

  it('the caller’s own token is refused by the upstream (its audience is the gateway)', async () => {
    const response = await fetch(upstream.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${tokens.machine}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
  });

  it('exchanges each caller’s token for one whose audience is the upstream, naming the caller and the gateway acting for it', async () => {
    const machine = await connect(gateway.url, tokens.machine);
    const other = await connect(gateway.url, tokens.other);
    opened.push(machine, other);
    const [mine, theirs] = await Promise.all([call(machine, 'notes_whoami'), call(other, 'notes_whoami')]);
    expect(mine).toEqual({ status: 'success', data: { subject: MACHINE_CLIENT.id, actor: GATEWAY_CLIENT.id, audience: upstream.url } });
    expect(theirs).toEqual({ status: 'success', data: { subject: OTHER_CLIENT.id, actor: GATEWAY_CLIENT.id, audience: upstream.url } });
  });

  it('exchanges once per caller token: concurrent and later calls reuse the exchanged token until it nears expiry', async () => {
    const caller = await connect(gateway.url, (await as.clientCredentials(MACHINE_CLIENT, gatewayResource, 'notes:read')).access_token);
    opened.push(caller);
    const before = as.exchanges;
    const results = await Promise.all([1, 2, 3, 4].map(() => call(caller, 'notes_whoami')));
    results.push(await call(caller, 'notes_whoami'));
    expect(results.every((result) => result.data?.subject === MACHINE_CLIENT.id)).toBe(true);
    expect(as.exchanges - before).toBe(1);
  });

  it('client credentials: the upstream sees the gateway itself, whoever calls', async () => {
    const machine = await connect(gateway.url, tokens.machine);
    opened.push(machine);
    expect(await call(machine, 'itself_whoami')).toEqual({
      status: 'success',
      data: { subject: GATEWAY_CLIENT.id, actor: null, audience: upstream.url },
    });
  });

  it('a refused exchange answers UNAUTHORIZED naming the OAuth error only: no token, no body of the authorization server', async () => {
    const blocked = await connect(gateway.url, tokens.blocked);
    opened.push(blocked);
    const result = await call(blocked, 'notes_whoami');
    expect(result).toEqual({
      status: 'error',
      error: expect.objectContaining({
        code: 'UNAUTHORIZED',
        message: 'No credential for the upstream "notes" could be obtained: the authorization server refused (invalid_grant)',
      }),
    });
    expect(JSON.stringify(result)).not.toContain(tokens.blocked);
  });

  it('refuses to boot when a caller token of auth.oauth would be forwarded (MCP_ERR_TOKEN_PASSTHROUGH)', async () => {
    const error = await initApp([
      McpModule.forRoot({
        name: 'forwarding',
        version: '1.0.0',
        auth: { oauth: { issuer: as.issuer, resource: gatewayResource } },
        sources: { upstreams: [{ name: 'notes', url: upstream.url, forwardAuthorization: true }] },
      }),
    ]).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'MCP_ERR_TOKEN_PASSTHROUGH' });
    expect((error as Error).message).toContain('sources.upstreams[0].forwardAuthorization');
  });
});
