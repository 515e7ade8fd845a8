import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listen, type RunningApp } from '../kit/apps.js';
import { connectSdkClient } from '../kit/sdk-client.js';
import { DENIED_ADDRESS, RouteRequestModule, storedBodies } from './fixtures/route-request-app.js';

/**
 * Issue 35: the request a controller route sees when called as a tool carries the caller's address (an IP deny-list
 * guard must not fail open), takes from the arguments only what a URL can spell for path and query values, and never
 * a body whose prototype the caller chose (express with Nest's body parser on parsed `__proto__` as a key).
 */

type Envelope = { status: string; data?: any; error?: { code: string; message: string; fields?: string[] } };

describe('the request of a route called as a tool, over Streamable HTTP with the SDK client', () => {
  let app: RunningApp;
  const clients: Client[] = [];
  const connect = async (headers: Record<string, string> = {}) => {
    const client = await connectSdkClient(app.url, headers, 'route-request');
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })).structuredContent as Envelope;

  beforeAll(async () => {
    app = await listen([RouteRequestModule], { bodyParser: true });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app?.close();
  });

  it("an IP deny-list guard sees the caller's address (X-Forwarded-For, trusted) and refuses a denied one", async () => {
    expect(await call(await connect({ 'X-Forwarded-For': '192.0.2.1' }), 'mine', {})).toEqual({
      status: 'success',
      data: { ip: '192.0.2.1' },
    });
    expect(await call(await connect({ 'X-Forwarded-For': DENIED_ADDRESS }), 'mine', {})).toMatchObject({
      status: 'error',
      error: { code: 'FORBIDDEN' },
    });
  });

  it('a scalar @Query() value receives a string, and an object such as {"$ne": "x"} is a VALIDATION_ERROR', async () => {
    const client = await connect();
    expect(await call(client, 'find', { name: 'ada' })).toEqual({ status: 'success', data: { name: 'ada', type: 'string' } });
    expect(await call(client, 'find', { name: { $ne: 'x' } })).toMatchObject({
      status: 'error',
      error: { code: 'VALIDATION_ERROR', fields: ['name'] },
    });
    expect(await call(client, 'find', { name: ['a', 'b'] })).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR' } });
  });

  it('a __proto__ key in the arguments of an untyped @Body() never becomes the body prototype', async () => {
    const client = await connect();
    storedBodies.length = 0;
    // JSON.parse makes `__proto__` an own key, as a client's JSON does; an object literal would set the prototype.
    const poisoned = JSON.parse('{"title": "x", "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const outcome = await client.callTool({ name: 'store', arguments: poisoned }).then(
      (result) => result.structuredContent as Envelope,
      (error: Error) => ({ status: 'refused', error: { code: error.message, message: error.message } }),
    );
    expect(outcome.status).not.toBe('success');
    expect(storedBodies.filter((body) => body.polluted !== null || !body.plainPrototype)).toEqual([]);
    // A plain body still passes.
    expect(await call(client, 'store', { title: 'x' })).toEqual({ status: 'success', data: { stored: true } });
    expect(storedBodies.at(-1)).toEqual({ keys: ['title'], plainPrototype: true, polluted: null });
  });
});
