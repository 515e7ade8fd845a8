import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';

/** An MCP server of the official SDK 2.4 (both eras, `createMcpHandler`) on a free loopback port, noting each method asked. */
export interface SdkSkillsServer {
  readonly url: string;
  /** The JSON-RPC methods (and `resources/read` URIs) the server was asked, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

/** Serves `skills` (or no extension at all) from a fresh SDK McpServer per request, as the SDK's HTTP entry does. */
export async function startSdkSkillsServer(skills: SkillsExtension | undefined): Promise<SdkSkillsServer> {
  const handler = createMcpHandler(
    () => {
      const mcp = new McpServer({ name: 'sdk-skills', version: '2.4.0' }, { capabilities: { resources: {} } });
      skills?.attach(mcp);
      return mcp;
    },
    // No SSE keepalive timers: nothing here streams long, and the test's process must end when the server closes.
    { keepAliveMs: 0 },
  );
  const asked: string[] = [];
  const server = createServer((request, response) => {
    void bridge(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  /** Node's request to a web Request and the handler's Response back. */
  async function bridge(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (body.length > 0) {
      const message = JSON.parse(body.toString()) as { method?: string; params?: { uri?: string } };
      if (message.method) asked.push(message.method === 'resources/read' ? `resources/read ${message.params?.uri}` : message.method);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'DELETE';
    const answer = await handler.fetch(
      new Request(`http://127.0.0.1${request.url}`, { method: request.method, headers, ...(hasBody && { body }) }),
    );
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) Readable.fromWeb(answer.body as WebReadableStream).pipe(response);
    else response.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    asked,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
    },
  };
}
