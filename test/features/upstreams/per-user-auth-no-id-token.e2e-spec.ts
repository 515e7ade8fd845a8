import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SignJWT } from 'jose';
import { listenMcp, type RunningApp } from '../../kit/apps.js';
import { TestAuthorizationServer } from '../../kit/authorization-server.js';
import { freePort } from '../../kit/redis-server.harness.js';
import { callTool, completeSignIn, WhoAmITools } from '../../kit/upstream-user-auth.js';

/**
 * `confirmUser: 'same-subject'` against an authorization server that issues no ID token (plain OAuth 2.0): the
 * sign-in cannot be confirmed, so the callback refuses it with a page that says why and what fixes it, revokes what
 * was issued, and connects nobody.
 */
const SECRET = 'no-id-token-hs256-secret-0123456789abcdef';
const GATEWAY_CLIENT = { id: 'gateway', secret: 'gateway-client-secret-0123456789abcdef' };

describe('per-user authorization, confirmUser same-subject, an authorization server without ID tokens', () => {
  let as: TestAuthorizationServer;
  let upstream: RunningApp;
  let gateway: RunningApp;
  let client: Client;

  beforeAll(async () => {
    const [gatewayPort, upstreamPort] = await Promise.all([freePort(), freePort()]);
    const gatewayBase = `http://127.0.0.1:${gatewayPort}`;
    as = await TestAuthorizationServer.start({
      scopes: ['notes:read'],
      idTokens: false,
      clients: [
        {
          client_id: GATEWAY_CLIENT.id,
          client_secret: GATEWAY_CLIENT.secret,
          grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
          response_types: ['code'],
          redirect_uris: [`${gatewayBase}/mcp-upstream-auth/notes/callback`],
          scope: 'openid offline_access notes:read',
        },
      ],
    });
    const resource = `http://127.0.0.1:${upstreamPort}/mcp`;
    upstream = await listenMcp({ name: 'notes', version: '1.0.0', auth: { oauth: { issuer: as.issuer, resource } } }, [WhoAmITools], {
      port: upstreamPort,
    });
    const authorizationCode = {
      issuer: as.issuer,
      clientId: GATEWAY_CLIENT.id,
      clientSecret: GATEWAY_CLIENT.secret,
      scopes: ['notes:read', 'offline_access'],
      publicUrl: gatewayBase,
      encryptionKey: randomBytes(32).toString('base64'),
      confirmUser: 'same-subject' as const,
    };
    gateway = await listenMcp(
      {
        name: 'gateway',
        version: '1.0.0',
        auth: { jwt: { secret: SECRET } },
        sources: { upstreams: [{ name: 'notes', url: upstream.url, auth: { authorizationCode } }] },
      },
      [],
      { port: gatewayPort },
    );
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    client = new Client({ name: 'no-id-token', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    for (const server of [gateway, upstream, as]) await server?.close();
  });

  it('the callback answers 502 with a page naming the missing ID token and the fix; the tokens are revoked, nobody connected', async () => {
    const link = (await callTool(client, 'notes_whoami')).error!.authorization_url!;
    const revocations = as.revocations;
    const answer = await completeSignIn(link, `${gateway.base}/mcp-upstream-auth/notes/callback`, 'alice');
    expect(answer.status).toBe(502);
    const page = await answer.text();
    expect(page).toBe(
      'The authorization server of "notes" issued no ID token, so this sign-in cannot be confirmed as yours: nothing was connected. ' +
        'For the gateway’s operator: the authorization server must issue ID tokens (OpenID Connect) for the "openid" scope ' +
        "the gateway asks for; without them, only confirmUser 'unverified' (no confirmation) works.",
    );
    expect(page).not.toMatch(/eyJ|secret|at \w|Error/);
    // What the server issued for this sign-in is revoked, not left valid and unused.
    expect(as.revocations - revocations).toBe(1);
    expect((await callTool(client, 'notes_whoami')).error?.code).toBe('UPSTREAM_AUTHORIZATION_REQUIRED');
  });
});
