import type { IncomingMessage } from 'node:http';
import { callerHeadersOf, credentialHeaders, MCP_CALLER } from './caller-headers.js';
import { connectionCaller, httpCaller } from './mcp-caller.js';
import type { McpToolContext } from './mcp-tool-context.interface.js';

/** A request as Node hands it over: lower-case headers, a socket with the peer's address. */
function request(headers: Record<string, string | string[]>, url = '/mcp'): IncomingMessage {
  return { headers, method: 'POST', url, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
}

describe('McpCaller', () => {
  const alice = { subject: 'alice', tenant: 'acme', scopes: [], claims: {} };

  it('over HTTP: the headers as received, the method and URL, the tenant, and the socket address without trustProxy', () => {
    const caller = httpCaller(request({ 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer t' }), alice, 'http', false);
    expect(caller).toMatchObject({ transport: 'http', tenant: 'acme', method: 'POST', url: '/mcp', ip: '127.0.0.1', ips: [] });
    expect(caller.headers.authorization).toBe('Bearer t');
  });

  it("with trustProxy: ips is X-Forwarded-For (repeated headers joined, blanks dropped), client first; ip the proxy's entry", () => {
    const caller = httpCaller(request({ 'x-forwarded-for': ['203.0.113.7, 10.0.0.1', ' ,10.0.0.2'] }), undefined, 'sse', true);
    expect(caller).toMatchObject({ tenant: 'default', ip: '10.0.0.2', ips: ['203.0.113.7', '10.0.0.1', '10.0.0.2'] });
    expect(httpCaller(request({}), undefined, 'http', true)).toMatchObject({ ip: '127.0.0.1', ips: [] });
  });

  it('over stdio: the launch token as a bearer header, only for an authenticated connection', () => {
    expect(connectionCaller('stdio', alice, 'tok').headers).toEqual({ authorization: 'Bearer tok' });
    expect(connectionCaller('stdio', undefined, 'tok').headers).toEqual({});
    expect(connectionCaller('memory', alice)).toMatchObject({ headers: {}, ips: [], url: '' });
    // An in-process test client's headers, names lower-cased; the launch token wins over a presented authorization.
    expect(connectionCaller('stdio', alice, 'tok', { 'X-API-Key': 'k1', Authorization: 'Bearer other' }).headers).toEqual({
      'x-api-key': 'k1',
      authorization: 'Bearer tok',
    });
  });

  it('callerHeadersOf: the credential headers of the call, first of repeated ones; none without a caller', () => {
    const caller = httpCaller(request({ 'x-api-key': ['k1', 'k2'], cookie: 'c' }), undefined, 'http', false);
    const context = { [MCP_CALLER]: caller } as unknown as McpToolContext;
    expect(callerHeadersOf(context)).toEqual({ 'x-api-key': 'k1' });
    expect(callerHeadersOf({} as McpToolContext)).toBeUndefined();
    expect(credentialHeaders(connectionCaller('memory', undefined))).toBeUndefined();
  });
});
