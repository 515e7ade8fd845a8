import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpAuthError } from '../mcp-auth.error.js';
import { McpAuthUnavailableError } from '../mcp-auth-unavailable.error.js';
import { McpAuthThrottledError } from '../mcp-auth-throttled.error.js';
import { TokenIntrospector, type TokenIntrospectorSettings } from './token-introspector.js';

/** An introspection endpoint on loopback answering `active` for tokens starting with "good", counting its calls. */
let server: Server;
let endpoint: string;
let calls: string[] = [];
let expiresInSec = 3600;
let down = false;
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const token = new URLSearchParams(body).get('token') ?? '';
      calls.push(token);
      if (down) return void response.writeHead(500).end();
      const active = token.startsWith('good');
      const exp = Math.floor(Date.now() / 1000) + expiresInSec;
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify(active ? { active, sub: 'u', aud: 'https://mcp.example.com/mcp', iss: 'https://as.example.com', exp } : { active }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  calls = [];
  expiresInSec = 3600;
  down = false;
});

function introspector(settings: Partial<TokenIntrospectorSettings> = {}): TokenIntrospector {
  return new TokenIntrospector({
    endpoint,
    clientAuth: 'basic',
    clientId: 'rs',
    clientSecret: 'secret',
    issuer: 'https://as.example.com',
    audiences: () => ['https://mcp.example.com/mcp'],
    toPrincipal: (claims) => ({ subject: String(claims.sub), tenant: String(claims.sub), scopes: [], claims: {} }),
    cacheMaxMs: 60_000,
    cacheMaxEntries: 2,
    timeoutMs: 1_000,
    retryAfterMs: 5_000,
    maxRequestsPerMinute: 100,
    maxConcurrent: 10,
    ...settings,
  });
}

describe('TokenIntrospector', () => {
  it('remembers an active answer: the second check asks no one', async () => {
    const subject = introspector();
    await subject.verify('good-1');
    await subject.verify('good-1');
    expect(calls).toEqual(['good-1']);
  });

  it('keeps at most cacheMaxEntries answers, the oldest going first', async () => {
    const subject = introspector();
    for (const token of ['good-1', 'good-2', 'good-3', 'good-3', 'good-2', 'good-1']) await subject.verify(token);
    expect(calls).toEqual(['good-1', 'good-2', 'good-3', 'good-1']);
  });

  it('never keeps an answer beyond the token’s exp', async () => {
    expiresInSec = 2;
    const subject = introspector();
    await subject.verify('good-1');
    await subject.verify('good-1');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await subject.verify('good-1');
    expect(calls).toEqual(['good-1', 'good-1']);
  });

  it('shares one request among concurrent checks of a token', async () => {
    const subject = introspector();
    await Promise.all([subject.verify('good-1'), subject.verify('good-1'), subject.verify('good-1')]);
    expect(calls).toEqual(['good-1']);
  });

  it('remembers a refusal apart from the answers: asked once, and good answers are not pushed out', async () => {
    const subject = introspector();
    await subject.verify('good-1');
    for (const token of ['bad-1', 'bad-2', 'bad-3', 'bad-3']) await expect(subject.verify(token)).rejects.toBeInstanceOf(McpAuthError);
    await expect(subject.verify('bad-3')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await subject.verify('good-1');
    expect(calls).toEqual(['good-1', 'bad-1', 'bad-2', 'bad-3']);
  });

  it('bounds the requests one caller address causes per minute (429) and has in flight (503); another address is served', async () => {
    const subject = introspector({ maxRequestsPerMinute: 2, maxConcurrent: 1 });
    const first = subject.verify('good-1', '198.51.100.1');
    await expect(subject.verify('good-2', '198.51.100.1')).rejects.toBeInstanceOf(McpAuthUnavailableError);
    // Joining the check in flight of the same token costs nothing.
    await Promise.all([first, subject.verify('good-1', '198.51.100.1')]);
    await subject.verify('good-3', '198.51.100.1');
    await expect(subject.verify('good-4', '198.51.100.1')).rejects.toBeInstanceOf(McpAuthThrottledError);
    await subject.verify('good-4', '198.51.100.2');
    expect(calls).toEqual(['good-1', 'good-3', 'good-4']);
  });

  it('an introspection failure is an outage, not a refusal', async () => {
    down = true;
    await expect(introspector().verify('good-1')).rejects.toBeInstanceOf(McpAuthUnavailableError);
  });
});
