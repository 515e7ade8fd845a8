import type { Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import * as z from 'zod';
import type { Request, Response } from 'express';
import { HOST } from '../ipc.js';

function getServer(): McpServer {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns the text it is given.', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

/**
 * The official SDK (1.x), stateless with JSON responses, as its simpleStatelessStreamableHttp example does:
 * a new server and transport per request, on the SDK's express app (express.json(), localhost Host check).
 */
export async function start(): Promise<{ listen(port: number): Promise<number>; close(): Promise<void> }> {
  const app = createMcpExpressApp({ host: HOST });
  app.post('/mcp', async (req: Request, res: Response) => {
    const server = getServer();
    try {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
    } catch {
      if (!res.headersSent) res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
    }
  });
  let http: Server | undefined;
  return {
    listen: (port) =>
      new Promise((resolve, reject) => {
        http = app.listen(port, HOST, (error?: Error) => (error ? reject(error) : resolve((http!.address() as { port: number }).port)));
      }),
    close: () => new Promise((resolve) => (http ? http.close(() => resolve()) : resolve())),
  };
}
