import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { HOST } from '../ipc.js';

/** One server per HTTP request, as `createMcpHandler` builds them (its documented shape). */
function getServer(): McpServer {
  const server = new McpServer({ name: 'bench-sdk-v2', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the text it is given.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

/** Node's request as the web-standard `Request` the handler serves (what `toNodeHandler` of `@modelcontextprotocol/node` does). */
async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(`http://${req.headers.host ?? HOST}${req.url ?? '/'}`, { method: req.method, headers, body });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'content-length': String(body.length) });
  res.end(body);
}

/**
 * The official SDK v2 server (`@modelcontextprotocol/server`): `createMcpHandler(factory)` serves 2026-07-28
 * requests (per-request envelope) and, through its default stateless legacy fallback, 2025-era ones, a server
 * instance per request; on a plain `node:http` server.
 */
export async function start(): Promise<{ listen(port: number): Promise<number>; close(): Promise<void> }> {
  const handler = createMcpHandler(() => getServer());
  const http = createServer((req, res) => {
    toRequest(req)
      .then((request) => handler.fetch(request))
      .then((response) => send(response, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  return {
    listen: (port) => new Promise((resolve) => http.listen(port, HOST, () => resolve((http.address() as { port: number }).port))),
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
