import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SpawnedFixtureApp } from '../kit/apps.js';
import { ensureFixtureMainCompiled } from '../kit/build.js';
import { connectSdkClient } from '../kit/sdk-client.js';

/**
 * Issue 35: `@nestjs/throttler`'s `ThrottlerGuard` on a tool, unchanged. It reads `switchToHttp().getRequest()`
 * (`headers`, `ip`) and writes `X-RateLimit-*` on `getResponse()`; before, the request was the tool's arguments and
 * every call ended INTERNAL_ERROR. The app is spawned (see `throttled-app.main.ts` for why) and driven over HTTP with
 * the SDK client.
 */

type Envelope = { status: string; data?: unknown; error?: { code: string; message: string } };

const LIMIT = 2;

describe('ThrottlerGuard on a tool, over Streamable HTTP with the SDK client', () => {
  let server: SpawnedFixtureApp;
  const clients: Client[] = [];
  const connect = async (forwardedFor: string) => {
    const client = await connectSdkClient(server.url, { 'X-Forwarded-For': forwardedFor }, 'throttler');
    clients.push(client);
    return client;
  };
  const call = async (client: Client) => (await client.callTool({ name: 'throttled', arguments: {} })).structuredContent as Envelope;

  beforeAll(async () => {
    const main = await ensureFixtureMainCompiled('test/security/fixtures/throttled-app.main.ts');
    server = await SpawnedFixtureApp.start(main, { THROTTLE_LIMIT: String(LIMIT) });
  }, 240_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.stop();
  });

  it('admits LIMIT calls per client address, then answers RATE_LIMITED; another address has its own budget', async () => {
    const first = await connect('203.0.113.7');
    for (let index = 0; index < LIMIT; index++) expect(await call(first)).toEqual({ status: 'success', data: { ok: true } });
    expect(await call(first)).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED' } });
    // The count follows the caller's address, not the server or the session.
    const second = await connect('203.0.113.8');
    expect(await call(second)).toEqual({ status: 'success', data: { ok: true } });
  });
});
