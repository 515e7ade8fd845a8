import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { nodeRequestOf, nodeResponseOf, parsedBodyOf, queryParamOf, requestPathOf } from './http-exchange.js';

/** Node's request and response pair, as express hands them to a handler (they are express's objects too). */
function nodePair(url = '/mcp'): { request: IncomingMessage; response: ServerResponse } {
  const request = new IncomingMessage(new Socket());
  request.url = url;
  return { request, response: new ServerResponse(request) };
}

/** What Fastify's request and reply look like from a handler: Node's objects as `raw`, and the reply's own state. */
function fastifyPair(body?: unknown) {
  const { request, response } = nodePair();
  const replyHeaders: Record<string, string> = { 'access-control-allow-origin': '*' };
  const reply = {
    raw: response,
    hijacked: 0,
    get sent() {
      return this.hijacked > 0;
    },
    hijack() {
      this.hijacked += 1;
      return this;
    },
    getHeaders: () => replyHeaders,
  };
  return { fastifyRequest: { raw: request, body, headers: request.headers }, reply, request, response };
}

describe('http-exchange: Node objects behind either adapter', () => {
  it("returns express's request and response themselves (they are Node's)", () => {
    const { request, response } = nodePair();
    expect(nodeRequestOf(request)).toBe(request);
    expect(nodeResponseOf(response)).toBe(response);
  });

  it("unwraps Fastify's request and keeps the body its parser produced for parsedBodyOf", () => {
    const { fastifyRequest, request } = fastifyPair({ jsonrpc: '2.0', id: 1 });
    expect(nodeRequestOf(fastifyRequest)).toBe(request);
    expect(parsedBodyOf(request)).toEqual({ jsonrpc: '2.0', id: 1 });
  });

  it("reads express's parsed body from the request itself", () => {
    const { request } = nodePair();
    (request as unknown as { body: unknown }).body = [1, 2];
    expect(parsedBodyOf(request)).toEqual([1, 2]);
  });

  it("hijacks Fastify's reply once and carries over the headers set on it, so Fastify sends nothing itself", () => {
    const { reply, response } = fastifyPair();
    expect(nodeResponseOf(reply)).toBe(response);
    expect(nodeResponseOf(reply)).toBe(response);
    expect(reply.hijacked).toBe(1);
    expect(response.getHeader('access-control-allow-origin')).toBe('*');
  });

  it('reads the path and a query parameter from originalUrl when a router rewrote url', () => {
    const { request } = nodePair('/');
    (request as unknown as { originalUrl: string }).originalUrl = '/api/messages?sessionId=a%20b&sessionId=c';
    expect(requestPathOf(request)).toBe('/api/messages');
    expect(queryParamOf(request, 'sessionId')).toBe('a b');
    expect(queryParamOf(request, 'other')).toBeUndefined();
    expect(queryParamOf(nodePair('/messages').request, 'sessionId')).toBeUndefined();
  });
});
