import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SignJWT } from 'jose';
import { listenMcp, SpawnedMcpGateway, type RunningApp } from '../kit/apps.js';
import { TestAuthorizationServer } from '../kit/authorization-server.js';
import { ensureGatewayBuilt } from '../kit/build.js';
import { freePort } from '../kit/redis-server.harness.js';
import { callTool, completeSignIn, WhoAmITools } from '../kit/upstream-user-auth.js';

/**
 * The gateway sample as its README runs it (`node dist/apps/mcp-gateway/main.js`, on the run's HTTP adapter) with two
 * upstreams from `GATEWAY_UPSTREAMS`, both protected by a real oidc-provider and accepting only tokens whose audience
 * is their own resource: "directory" reached as the gateway itself (client credentials), "notes" as each user
 * (per-user authorization, `confirmUser: 'same-subject'`). The callers are users with the gateway's HS256 tokens whose
 * subjects are their accounts at the provider; the official client calls, a plain-HTTP browser opens the links.
 */
const JWT_SECRET = 'gateway-user-auth-hs256-secret-0123456789abcdef';
const GATEWAY_CLIENT = { id: 'gateway', secret: 'gateway-client-secret-0123456789abcdef' };
const SEALING_KEY = randomBytes(32).toString('base64');

const userToken = (subject: string) =>
  new SignJWT({ tenant_id: 'acme' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(JWT_SECRET));

describe('apps/mcp-gateway (built, spawned): an upstream on client credentials and one on per-user authorization', () => {
  let as: TestAuthorizationServer;
  let notes: RunningApp;
  let directory: RunningApp;
  let gateway: SpawnedMcpGateway;
  let callbackUri: string;
  const opened: Client[] = [];

  /** The official client as `subject`, a user of the gateway. */
  async function connect(subject: string): Promise<Client> {
    const client = new Client({ name: `gateway-user-${subject}`, version: '1.0.0' });
    const headers = { Authorization: `Bearer ${await userToken(subject)}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers } }));
    opened.push(client);
    return client;
  }

  /** The link a not-yet-connected user's call to the per-user upstream answers. */
  async function linkFor(client: Client): Promise<string> {
    const answer = await callTool(client, 'notes_whoami');
    expect(answer).toEqual({
      status: 'error',
      error: expect.objectContaining({ code: 'UPSTREAM_AUTHORIZATION_REQUIRED', authorization_url: expect.any(String) }),
    });
    return answer.error!.authorization_url!;
  }

  beforeAll(async () => {
    await ensureGatewayBuilt();
    const [gatewayPort, notesPort, directoryPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const gatewayBase = `http://127.0.0.1:${gatewayPort}`;
    callbackUri = `${gatewayBase}/mcp-upstream-auth/notes/callback`;
    as = await TestAuthorizationServer.start({
      scopes: ['notes:read', 'directory:read'],
      clients: [
        {
          client_id: GATEWAY_CLIENT.id,
          client_secret: GATEWAY_CLIENT.secret,
          grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
          response_types: ['code'],
          redirect_uris: [callbackUri],
          scope: 'openid offline_access notes:read directory:read',
        },
      ],
    });
    const protectedBy = (name: string, port: number) =>
      listenMcp(
        { name, version: '1.0.0', auth: { oauth: { issuer: as.issuer, resource: `http://127.0.0.1:${port}/mcp` } } },
        [WhoAmITools],
        { port },
      );
    [notes, directory] = await Promise.all([protectedBy('notes', notesPort), protectedBy('directory', directoryPort)]);
    const client = { issuer: as.issuer, clientId: GATEWAY_CLIENT.id, clientSecret: 'env:GATEWAY_CLIENT_SECRET' };
    gateway = await SpawnedMcpGateway.start(
      {
        MCP_JWT_SECRET: JWT_SECRET,
        GATEWAY_CLIENT_SECRET: GATEWAY_CLIENT.secret,
        GATEWAY_SEALING_KEY: SEALING_KEY,
        GATEWAY_UPSTREAMS: JSON.stringify([
          {
            name: 'directory',
            url: directory.url,
            auth: { clientCredentials: { ...client, resource: directory.url, scopes: ['directory:read'] } },
          },
          {
            name: 'notes',
            url: notes.url,
            auth: {
              authorizationCode: {
                ...client,
                scopes: ['notes:read', 'offline_access'],
                publicUrl: gatewayBase,
                encryptionKey: 'env:GATEWAY_SEALING_KEY',
                confirmUser: 'same-subject',
              },
            },
          },
        ]),
      },
      { port: gatewayPort },
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(opened.map((client) => client.close()));
    await gateway?.stop();
    for (const server of [notes, directory, as]) await server?.close();
  });

  it('reaches the client-credentials upstream as the gateway for every user, without any link', async () => {
    for (const user of ['alice', 'bob']) {
      expect(await callTool(await connect(user), 'directory_whoami')).toEqual({
        status: 'success',
        data: { subject: GATEWAY_CLIENT.id, audience: directory.url, jti: expect.any(String) },
      });
    }
  });

  it('a first call answers a link at the gateway; the user signs in through it, and the retried call is theirs upstream', async () => {
    const alice = await connect('alice');
    const link = await linkFor(alice);
    expect(link).toMatch(new RegExp(`^${gateway.baseUrl}/mcp-upstream-auth/notes/start\\?ticket=[\\w-]{43}$`));
    const page = await completeSignIn(link, callbackUri, 'alice');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Your account at "notes" is connected');
    // The upstream saw a token of the provider's for its own resource, naming alice.
    expect(await callTool(alice, 'notes_whoami')).toEqual({
      status: 'success',
      data: { subject: 'alice', audience: notes.url, jti: expect.any(String) },
    });
    // Another connection of alice's is the same user upstream; the gateway's own identity is unchanged.
    const again = await connect('alice');
    expect(await callTool(again, 'notes_whoami')).toMatchObject({ status: 'success', data: { subject: 'alice' } });
    expect(await callTool(again, 'directory_whoami')).toMatchObject({ status: 'success', data: { subject: GATEWAY_CLIENT.id } });
  });

  it('bob never gets alice’s upstream identity, nor connects his account for someone else; then he is himself', async () => {
    const bob = await connect('bob');
    const bobsLink = await linkFor(bob);
    // Dave's link, completed by bob signing in at the provider: refused, and dave is still not connected.
    const dave = await connect('dave');
    const refused = await completeSignIn(await linkFor(dave), callbackUri, 'bob');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('not the one this link was handed out for');
    expect(await callTool(dave, 'notes_whoami')).toMatchObject({ error: { code: 'UPSTREAM_AUTHORIZATION_REQUIRED' } });

    expect((await completeSignIn(bobsLink, callbackUri, 'bob')).status).toBe(200);
    const [bobs, alices] = await Promise.all([callTool(bob, 'notes_whoami'), callTool(await connect('alice'), 'notes_whoami')]);
    expect(bobs).toMatchObject({ status: 'success', data: { subject: 'bob', audience: notes.url } });
    expect(alices).toMatchObject({ status: 'success', data: { subject: 'alice', audience: notes.url } });
  });

  it('disconnect_notes: the user’s next call asks again, the other user stays connected', async () => {
    const alice = await connect('alice');
    expect(await callTool(alice, 'disconnect_notes')).toMatchObject({ status: 'success', data: { upstream: 'notes', disconnected: true } });
    expect((await linkFor(alice)).startsWith(`${gateway.baseUrl}/mcp-upstream-auth/notes/start?ticket=`)).toBe(true);
    expect(await callTool(await connect('bob'), 'notes_whoami')).toMatchObject({ status: 'success', data: { subject: 'bob' } });
    expect(await callTool(alice, 'directory_whoami')).toMatchObject({ status: 'success', data: { subject: GATEWAY_CLIENT.id } });
  });

  it('its log names each upstream and neither the client secret nor the sealing key given as env: references', () => {
    const log = gateway.process.stderr;
    expect(log).toContain(`upstream notes (${notes.url}) as notes_*`);
    expect(log).toContain(`upstream directory (${directory.url}) as directory_*`);
    expect(log).not.toContain(GATEWAY_CLIENT.secret);
    expect(log).not.toContain(SEALING_KEY);
  });
});
