import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Provider } from '@nestjs/common';
import type { McpModuleForRootOptions } from '@nest-mcp/core';
import { listenMcp, type RunningApp } from './apps.js';

/** An app listening like {@link listenMcp}, and the official SDK 1.x client connected to it over Streamable HTTP. */
export interface AppWithSdkClient {
  readonly app: RunningApp;
  readonly client: Client;
  /** Closes the client, then the app. */
  close(): Promise<void>;
}

/** `McpModule.forRoot(options)` with `providers`, listening on the run's adapter, and an SDK client connected to it. */
export async function listenWithSdkClient(options: McpModuleForRootOptions, providers: Provider[]): Promise<AppWithSdkClient> {
  const app = await listenMcp(options, providers);
  const client = new Client({ name: `${options.name}-e2e`, version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
  } catch (error) {
    await app.close();
    throw error;
  }
  return {
    app,
    client,
    async close() {
      await client.close();
      await app.close();
    },
  };
}

/** The official SDK 1.x client connected over Streamable HTTP to `url`, sending `headers` with every request. */
export async function connectSdkClient(url: string, headers: Record<string, string> = {}, name = 'e2e'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
