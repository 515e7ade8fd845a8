import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listen, type RunningApp } from '../kit/apps.js';
import { connectSdkClient } from '../kit/sdk-client.js';
import { appGuardsModule, appToken, DENIED_ADDRESS } from './fixtures/app-guards-app.js';

/**
 * Issue 35: the guards a Nest app already has work on `@McpTool` methods, unchanged. `context.switchToHttp()` gives
 * a tool's guards and interceptors the MCP request (its headers, method, url, ip/ips, `user`), so Passport's
 * `AuthGuard('jwt')` authenticates from the Authorization header and an address guard reads `request.ip`.
 * Before, `getRequest()` was the tool's arguments and every call ended INTERNAL_ERROR.
 */

type Envelope = { status: string; data?: any; error?: { code: string; message: string } };

async function call(client: Client, name: string): Promise<Envelope> {
  return (await client.callTool({ name, arguments: {} })).structuredContent as Envelope;
}

describe("the app's own guards on tools, over Streamable HTTP with the SDK client", () => {
  let app: RunningApp;
  const clients: Client[] = [];
  const connect = async (headers: Record<string, string>) => {
    const client = await connectSdkClient(app.url, headers, 'app-guards');
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    app = await listen([appGuardsModule()]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app?.close();
  });

  it("Passport's AuthGuard('jwt') authenticates from the MCP request's bearer token and sets request.user", async () => {
    const client = await connect({ Authorization: `Bearer ${await appToken('alice')}` });
    expect(await call(client, 'whoami')).toEqual({
      status: 'success',
      data: { ok: true, user: { userId: 'alice' }, ip: '127.0.0.1', method: 'POST' },
    });
  });

  it("Passport's AuthGuard refuses a caller without a token, or with a forged one, as UNAUTHORIZED", async () => {
    for (const headers of [{}, { Authorization: 'Bearer not.a.token' }] as Record<string, string>[]) {
      const envelope = await call(await connect(headers), 'whoami');
      expect(envelope).toMatchObject({ status: 'error', error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('an address guard reads request.ip: with http.trustProxy, the X-Forwarded-For entry the proxy added', async () => {
    const allowed = await connect({ 'X-Forwarded-For': '10.0.0.1, 203.0.113.7' });
    expect(await call(allowed, 'address')).toEqual({
      status: 'success',
      data: { ok: true, ip: '203.0.113.7', method: 'POST' },
    });
    // The entries before the proxy's own are the client's word: a forged first entry does not dodge the deny-list.
    for (const forwarded of [DENIED_ADDRESS, `203.0.113.7, ${DENIED_ADDRESS}`]) {
      const denied = await connect({ 'X-Forwarded-For': forwarded });
      expect(await call(denied, 'address')).toMatchObject({
        status: 'error',
        error: { code: 'FORBIDDEN', message: 'This address is not allowed' },
      });
    }
  });
});
