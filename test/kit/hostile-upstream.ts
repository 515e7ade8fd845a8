import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** A tool as the hostile upstream lists it: anything, a non-object `inputSchema` included. */
export interface HostileTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/**
 * An upstream MCP server that misbehaves as a real one might (the official SDK's low-level `Server`, which sends its
 * lists unchecked, over Streamable HTTP on 127.0.0.1): it lists whatever `tools` holds, floods `list_changed` on
 * demand, and answers any call whose arguments miss a required property with an `isError` result, as SDK servers do;
 * its tool `leaky` fails with an error that repeats the `Authorization` and `X-API-Key` it was sent.
 * It counts the `tools/list` requests of each session and records every call and subscription.
 */
export class HostileUpstream {
  tools: HostileTool[] = [];
  prompts: { name: string; description?: string; arguments?: { name: string; required?: boolean }[] }[] = [];
  resources: { uri: string; name: string }[] = [];
  resourceTemplates: { uriTemplate: string; name: string }[] = [];
  /** `tools/list` requests by upstream session. */
  readonly toolLists = new Map<string, number>();
  readonly calls: { name: string; arguments: Record<string, unknown> }[] = [];
  readonly subscribed: string[] = [];
  private readonly sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();

  private constructor(
    private readonly http: HttpServer,
    readonly url: string,
  ) {}

  static async start(): Promise<HostileUpstream> {
    const served: { upstream?: HostileUpstream } = {};
    const http = createServer((request, response) => void served.upstream!.serve(request, response));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    served.upstream = new HostileUpstream(http, `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    return served.upstream;
  }

  /** `tools/list` requests of the busiest session (the gateway's own connection lists; tenant sessions only call). */
  get mostToolLists(): number {
    return Math.max(0, ...this.toolLists.values());
  }

  /** Sends `notifications/<kind>/list_changed` `times` times to every session, without waiting between them. */
  async announce(kind: 'tools' | 'prompts' | 'resources', times = 1): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const { server } of this.sessions.values()) {
      for (let i = 0; i < times; i++) {
        sends.push(
          kind === 'tools'
            ? server.sendToolListChanged()
            : kind === 'prompts'
              ? server.sendPromptListChanged()
              : server.sendResourceListChanged(),
        );
      }
    }
    await Promise.all(sends);
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map(({ transport }) => transport.close()));
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(resolve));
  }

  private async serve(
    request: Parameters<StreamableHTTPServerTransport['handleRequest']>[0],
    response: Parameters<StreamableHTTPServerTransport['handleRequest']>[1],
  ) {
    const id = request.headers['mcp-session-id'];
    let session = typeof id === 'string' ? this.sessions.get(id) : undefined;
    if (!session) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void this.sessions.set(sessionId, { transport, server }),
      });
      const server = this.server(() => transport.sessionId ?? '');
      await server.connect(transport);
      session = { transport, server };
    }
    await session.transport.handleRequest(request, response);
  }

  private server(sessionId: () => string): Server {
    const server = new Server(
      { name: 'hostile', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => {
      this.toolLists.set(sessionId(), (this.toolLists.get(sessionId()) ?? 0) + 1);
      return { tools: this.tools } as never;
    });
    server.setRequestHandler(CallToolRequestSchema, ({ params }, extra) => {
      const args = params.arguments ?? {};
      this.calls.push({ name: params.name, arguments: args });
      // As a careless API does: its error repeats the credentials it was sent.
      if (params.name === 'leaky') {
        const headers = extra.requestInfo?.headers ?? {};
        throw new Error(`Rejected credentials ${String(headers.authorization)} / ${String(headers['x-api-key'])}`);
      }
      const tool = this.tools.find((candidate) => candidate.name === params.name);
      const required = ((tool?.inputSchema as { required?: string[] } | undefined)?.required ?? []).filter((key) => !(key in args));
      if (required.length > 0)
        return { isError: true, content: [{ type: 'text', text: `Invalid arguments: ${required.join(', ')} required` }] };
      return { content: [{ type: 'text', text: `upstream ${params.name}` }] };
    });
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: this.prompts }));
    server.setRequestHandler(GetPromptRequestSchema, ({ params }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `upstream prompt ${params.name}` } }],
    }));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: this.resources }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: this.resourceTemplates }));
    server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => ({ contents: [{ uri: params.uri, text: 'upstream secret' }] }));
    server.setRequestHandler(SubscribeRequestSchema, ({ params }) => {
      this.subscribed.push(params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, () => ({}));
    return server;
  }
}
