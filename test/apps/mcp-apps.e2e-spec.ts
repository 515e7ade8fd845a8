/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`, SEP-1865) over real sockets: the official SDK 1.x client
 * against the weather server, with and without the extension declared, and raw 2026-07-28 requests against a
 * fixture with an app-only tool. A client that declared the extension sees `_meta.ui` and reads the card; one
 * that did not gets the same tools and their text and structured results; app-only tools are hidden from it and
 * unknown to its tools/call, answered exactly like a tool that does not exist.
 */
import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpTool, McpUiResource, MCP_UI_EXTENSION, MCP_UI_MIME_TYPE } from '@nest-mcp/core';
import { todayUtc } from '../../apps/weather-server/src/weather/weather.model.js';
import { expectedReport } from '../support/weather-expectations.js';
import { type RunningApp, listenMcp, startWeatherApp } from '../kit/apps.js';
import { envelopeOf } from '../kit/http.js';
import { call2026 } from '../rev-2026-07-28/support/requests.js';

const UI_CAPABILITIES = { extensions: { [MCP_UI_EXTENSION]: { mimeTypes: [MCP_UI_MIME_TYPE] } } };

async function connect(url: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-apps-e2e', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('MCP Apps on the weather server (official SDK 1.x client)', () => {
  let weather: RunningApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    weather = await startWeatherApp();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await weather?.close();
  });

  it('declares the extension and points get_weather and get_forecast at ui://weather/card', async () => {
    const client = await connect(weather.url, UI_CAPABILITIES);
    clients.push(client);
    const capabilities = client.getServerCapabilities() as Record<string, any>;
    expect(capabilities.extensions).toEqual(expect.objectContaining({ [MCP_UI_EXTENSION]: {} }));
    const { tools } = await client.listTools();
    for (const name of ['get_weather', 'get_forecast']) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      expect(tool._meta).toEqual({ ui: { resourceUri: 'ui://weather/card' }, 'ui/resourceUri': 'ui://weather/card' });
    }
  });

  it('lists and reads the card: text/html;profile=mcp-app with _meta.ui, self-contained', async () => {
    const client = await connect(weather.url, UI_CAPABILITIES);
    clients.push(client);
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({
        uri: 'ui://weather/card',
        name: 'weather-card',
        mimeType: MCP_UI_MIME_TYPE,
        _meta: { ui: { prefersBorder: true } },
      }),
    );
    const { contents } = await client.readResource({ uri: 'ui://weather/card' });
    expect(contents).toHaveLength(1);
    const [card] = contents as Array<{ uri: string; mimeType: string; text: string; _meta: unknown }>;
    expect(card).toMatchObject({ uri: 'ui://weather/card', mimeType: MCP_UI_MIME_TYPE, _meta: { ui: { prefersBorder: true } } });
    expect(card.text).toMatch(/^<!doctype html>/);
    expect(card.text).toContain('ui/initialize');
    // No CDN, no external fetch: nothing is loaded from anywhere.
    expect(card.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/|fetch\(|XMLHttpRequest|WebSocket/);
  });

  it('a client without the extension gets the same tools and their text and structured results', async () => {
    const plain = await connect(weather.url);
    const withUi = await connect(weather.url, UI_CAPABILITIES);
    clients.push(plain, withUi);
    const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(await names(plain)).toEqual(await names(withUi));
    const result = await plain.callTool({ name: 'get_weather', arguments: { city: 'Beijing' } });
    expect(result.isError).toBeFalsy();
    const envelope = { status: 'success', data: expectedReport('Beijing', todayUtc()) };
    expect(result.structuredContent).toEqual(envelope);
    expect(envelopeOf(result as never)).toEqual(envelope);
  });
});

@Injectable()
class AppOnlyTools {
  @McpUiResource({
    uri: 'ui://counter/view',
    name: 'counter-view',
    csp: { connectDomains: ['https://api.example.com'] },
    permissions: { clipboardWrite: {} },
    domain: 'counter.example.com',
    prefersBorder: false,
  })
  view(): string {
    return '<!doctype html><html><body>counter</body></html>';
  }

  @McpTool({ description: 'Shows the counter.', ui: { resourceUri: 'ui://counter/view' } })
  showCounter() {
    return { count: 1 };
  }

  @McpTool({ description: 'Increments the counter; only the app calls it.', ui: { resourceUri: 'ui://counter/view', visibility: ['app'] } })
  incrementCounter() {
    return { count: 2 };
  }
}

describe('MCP Apps negotiation per client (app-only tools)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await listenMcp({ name: 'apps', version: '1.0.0' }, [AppOnlyTools]);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('2025-11-25: the app-only tool is listed only to a client that declared the extension', async () => {
    const plain = await connect(app.url);
    const withUi = await connect(app.url, UI_CAPABILITIES);
    try {
      expect((await plain.listTools()).tools.map((tool) => tool.name)).toEqual(['show_counter']);
      const tools = (await withUi.listTools()).tools;
      expect(tools.map((tool) => tool.name)).toEqual(['show_counter', 'increment_counter']);
      expect(tools[1]._meta?.ui).toEqual({ resourceUri: 'ui://counter/view', visibility: ['app'] });
    } finally {
      await Promise.all([plain.close(), withUi.close()]);
    }
  });

  it('2025-11-25: a client without the extension cannot call the app-only tool: -32602, as for a missing tool', async () => {
    const plain = await connect(app.url);
    const withUi = await connect(app.url, UI_CAPABILITIES);
    try {
      const refusal = async (name: string) => {
        const error = await plain.callTool({ name, arguments: {} }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(McpError);
        return { code: (error as McpError).code, message: (error as McpError).message.replace(name, '<name>') };
      };
      const hidden = await refusal('increment_counter');
      expect(hidden).toEqual({ code: -32602, message: 'MCP error -32602: Unknown tool: <name>' });
      expect(await refusal('no_such_tool')).toEqual(hidden);
      // The app's host (a client that declared the extension) calls it.
      const called = await withUi.callTool({ name: 'increment_counter', arguments: {} });
      expect(called.isError).toBeFalsy();
      expect(called.structuredContent).toEqual({ status: 'success', data: { count: 2 } });
    } finally {
      await Promise.all([plain.close(), withUi.close()]);
    }
  });

  it('2026-07-28: tools/call of the app-only tool is an unknown tool unless this request declares the extension', async () => {
    const hidden = await call2026(app.url, 11, 'tools/call', { name: 'increment_counter', arguments: {} });
    const missing = await call2026(app.url, 11, 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect(hidden.messages[0].error).toEqual({ code: -32602, message: 'Unknown tool: increment_counter' });
    expect({ status: hidden.status, code: hidden.messages[0].error.code }).toEqual({
      status: missing.status,
      code: missing.messages[0].error.code,
    });
    expect(missing.messages[0].error.message).toBe('Unknown tool: no_such_tool');
    const otherProfile = { extensions: { [MCP_UI_EXTENSION]: { mimeTypes: ['text/uri-list'] } } };
    const other = await call2026(app.url, 12, 'tools/call', { name: 'increment_counter', arguments: {} }, { capabilities: otherProfile });
    expect(other.messages[0].error?.code).toBe(-32602);
    const withUi = await call2026(
      app.url,
      13,
      'tools/call',
      { name: 'increment_counter', arguments: {} },
      { capabilities: UI_CAPABILITIES },
    );
    expect(withUi.status).toBe(200);
    expect(withUi.messages[0].result.structuredContent).toEqual({ status: 'success', data: { count: 2 } });
  });

  it('2026-07-28: negotiated per request from clientCapabilities.extensions; the resource carries csp, permissions, domain', async () => {
    const discover = await call2026(app.url, 1, 'server/discover');
    expect(discover.messages[0].result.capabilities.extensions).toEqual(expect.objectContaining({ [MCP_UI_EXTENSION]: {} }));
    const plain = await call2026(app.url, 2, 'tools/list');
    expect(plain.messages[0].result.tools.map((tool: { name: string }) => tool.name)).toEqual(['show_counter']);
    const withUi = await call2026(app.url, 3, 'tools/list', {}, { capabilities: UI_CAPABILITIES });
    expect(withUi.messages[0].result.tools.map((tool: { name: string }) => tool.name)).toEqual(['show_counter', 'increment_counter']);
    // A client listing other UI MIME types only does not get the app-only tool.
    const otherProfile = { extensions: { [MCP_UI_EXTENSION]: { mimeTypes: ['text/uri-list'] } } };
    const other = await call2026(app.url, 4, 'tools/list', {}, { capabilities: otherProfile });
    expect(other.messages[0].result.tools.map((tool: { name: string }) => tool.name)).toEqual(['show_counter']);
    const read = await call2026(app.url, 5, 'resources/read', { uri: 'ui://counter/view' }, { capabilities: UI_CAPABILITIES });
    expect(read.messages[0].result.contents).toEqual([
      {
        uri: 'ui://counter/view',
        mimeType: MCP_UI_MIME_TYPE,
        text: '<!doctype html><html><body>counter</body></html>',
        _meta: {
          ui: {
            csp: { connectDomains: ['https://api.example.com'] },
            permissions: { clipboardWrite: {} },
            domain: 'counter.example.com',
            prefersBorder: false,
          },
        },
      },
    ]);
  });
});
