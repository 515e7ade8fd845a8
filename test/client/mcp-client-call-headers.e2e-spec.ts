import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '@nest-mcp/core';

/** What the server saw of one POST: the JSON-RPC method, the tool's `who` argument, and the headers. */
interface Seen {
  method: string;
  who?: string;
  authorization?: string;
  client?: string;
}

/**
 * A raw Streamable HTTP server (JSON answers, one session) that records every POST's headers; a `tools/call`
 * answers after `delayMs`, so concurrent calls overlap on the wire.
 */
async function recordingServer(delayMs: number): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.method !== 'POST') return void response.writeHead(405).end();
      const message = JSON.parse(body) as { id?: number; method: string; params?: { arguments?: { who?: string } } };
      seen.push({
        method: message.method,
        who: message.params?.arguments?.who,
        authorization: request.headers.authorization,
        client: request.headers['x-client'] as string | undefined,
      });
      if (message.id === undefined) return void response.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'recorder', version: '1' } }
          : { content: [{ type: 'text', text: `hello ${message.params?.arguments?.who}` }] };
      setTimeout(
        () => {
          response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'one' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        },
        message.method === 'tools/call' ? delayMs : 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('McpClient call headers (the headers option of one call)', () => {
  let server: Awaited<ReturnType<typeof recordingServer>>;
  let client: McpClient | undefined;

  beforeEach(async () => {
    server = await recordingServer(30);
  });
  afterEach(async () => {
    await client?.close();
    await server.close();
  });

  it('sends each call its own headers over the client’s, concurrent calls on one session included', async () => {
    client = new McpClient({ url: server.url, protocol: 'legacy', headers: { 'x-client': 'gateway' } });
    const results = await Promise.all(
      ['alice', 'bob'].map((who) => client!.callTool('greet', { who }, { headers: { authorization: `Bearer ${who}` } })),
    );
    expect(results.map((result) => (result.content as { text: string }[])[0].text)).toEqual(['hello alice', 'hello bob']);
    const calls = server.seen.filter((one) => one.method === 'tools/call');
    expect(calls).toEqual(
      expect.arrayContaining([
        { method: 'tools/call', who: 'alice', authorization: 'Bearer alice', client: 'gateway' },
        { method: 'tools/call', who: 'bob', authorization: 'Bearer bob', client: 'gateway' },
      ]),
    );
    // Requests of no call (initialize, notifications/initialized) carry only the client's own headers.
    expect(server.seen.filter((one) => one.method !== 'tools/call').every((one) => one.authorization === undefined)).toBe(true);
    // A call without headers carries none of another call's.
    await client.callTool('greet', { who: 'carol' });
    expect(server.seen.find((one) => one.who === 'carol')).toEqual({ method: 'tools/call', who: 'carol', client: 'gateway' });
  });

  it('hands a headers function the call’s headers, and sends them over what it returns', async () => {
    const given: (Readonly<Record<string, string>> | undefined)[] = [];
    client = new McpClient({
      url: server.url,
      protocol: 'legacy',
      headers: (call) => {
        given.push(call);
        return { 'x-client': call ? `for ${call.authorization}` : 'own', authorization: 'Bearer own' };
      },
    });
    await client.callTool('greet', { who: 'dave' }, { headers: { authorization: 'Bearer dave' } });
    expect(given).toContainEqual({ authorization: 'Bearer dave' });
    expect(server.seen.find((one) => one.who === 'dave')).toEqual({
      method: 'tools/call',
      who: 'dave',
      authorization: 'Bearer dave',
      client: 'for Bearer dave',
    });
    expect(server.seen.find((one) => one.method === 'initialize')).toMatchObject({ authorization: 'Bearer own', client: 'own' });
  });
});
