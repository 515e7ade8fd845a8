import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from './redis-server.harness.js';
import { LOAD_BALANCER_REFUSAL_HEADER, startNginx, type NginxHandle } from './nginx.js';
import { SseReader } from './sse.js';

/** A backend that says which one it is, streams SSE on /events, and hangs on /hang (to be killed under a request). */
function backend(name: string, hung: Set<ServerResponse>): Promise<Server> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/events') {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write(`data: ${name}\n\n`);
      return; // left open: only unbuffered proxying gets this event through before the stream ends
    }
    if (request.url === '/hang') return void hung.add(response);
    request.resume();
    request.on('end', () => response.end(`${name} ${request.method}`));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The load balancer of the chaos test (test/scaling/chaos.e2e-spec.ts), checked on its own against plain backends. */
describe('the nginx load balancer of the tests', () => {
  let nginx: NginxHandle | undefined;
  const servers: Server[] = [];
  const hung = new Set<ServerResponse>();

  afterEach(async () => {
    await nginx?.stop();
    nginx = undefined;
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    hung.clear();
  });

  async function balance(names: string[], extraUpstreams: string[] = []): Promise<NginxHandle> {
    for (const name of names) servers.push(await backend(name, hung));
    const upstreams = servers.map((server) => `127.0.0.1:${(server.address() as AddressInfo).port}`);
    nginx = await startNginx({ upstreams: [...upstreams, ...extraUpstreams] });
    return nginx;
  }

  it('passes the config check, spreads requests round robin without stickiness and streams SSE unbuffered', async () => {
    const lb = await balance(['a', 'b']);
    const answers = [];
    for (let index = 0; index < 4; index++) answers.push(await (await fetch(`${lb.baseUrl}/x`)).text());
    expect(answers.sort()).toEqual(['a GET', 'a GET', 'b GET', 'b GET']);

    const controller = new AbortController();
    const reader = new SseReader(await fetch(`${lb.baseUrl}/events`, { signal: controller.signal }));
    expect(await reader.nextEvent(2_000)).toMatchObject({ data: expect.stringMatching(/^[ab]$/) });
    await reader.cancel();
    controller.abort();
    expect(lb.accessLog().length).toBeGreaterThanOrEqual(4);
  });

  it('skips a backend that refuses connections, POST included; a backend dying under a request answers 503 + Retry-After', async () => {
    const lb = await balance(['a'], [`127.0.0.1:${await freePort()}`]);
    for (let index = 0; index < 4; index++) {
      const response = await fetch(`${lb.baseUrl}/x`, { method: 'POST', body: '{}' });
      expect([response.status, await response.text()]).toEqual([200, 'a POST']);
    }

    const pending = fetch(`${lb.baseUrl}/hang`);
    for (let waited = 0; hung.size === 0 && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const response of hung) response.socket?.destroy(); // the backend's connection dies mid-request
    const refused = await pending;
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get(LOAD_BALANCER_REFUSAL_HEADER)).toBe('upstream-failed');
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });
});
