import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Injectable } from '@nestjs/common';
import { McpArgs, McpContext, McpTool, namespaceTools, type McpToolContext } from '@nest-mcp/core';
import { IsString } from 'class-validator';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { call2026 } from '../rev-2026-07-28/support/requests.js';
import { startFixture2026 } from '../rev-2026-07-28/support/fixture-app.js';

const API_KEYS = [
  { key: 'key-billing-0123456789', tenant: 'beta', scopes: ['billing'] },
  { key: 'key-plain-0123456789', tenant: 'plain', scopes: [] },
];
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

class CityDto {
  @IsString()
  city: string;
}

@Injectable()
class CatalogTools {
  @McpTool({ description: 'Gives the weather forecast of a city for the next days' })
  getWeather(@McpArgs() args: CityDto) {
    return `Sunny in ${args.city}`;
  }

  @McpTool({ description: 'Converts an amount between two currencies' })
  convertCurrency() {
    return 42;
  }

  @McpTool({ description: 'Sends an invoice to a customer by email', scopes: ['billing'] })
  sendInvoice() {
    return 'sent';
  }

  @McpTool({ description: 'The weather report of the beta programme', visibleTo: (principal) => principal?.tenant === 'beta' })
  betaWeatherReport() {
    return 'beta report';
  }

  @McpTool({ description: 'Reports whether its own call was cancelled' })
  cancellationProbe(@McpContext() context: McpToolContext) {
    return { aborted: context.signal.aborted };
  }
}

type Found = { status: string; data: { tools: { name: string; inputSchema: object }[] } };

describe('tool search (tools.search: replace), with the SDK client', () => {
  let app: RunningApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await listenMcp({ name: 'search', version: '1.0.0', auth: { apiKeys: API_KEYS }, tools: { search: { mode: 'replace' } } }, [
      CatalogTools,
    ]);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await app?.close();
  });

  async function clientWith(key: string): Promise<Client> {
    const client = new Client({ name: 'search-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: bearer(key) } }));
    clients.push(client);
    return client;
  }

  async function search(client: Client, query: string): Promise<string[]> {
    const result = await client.callTool({ name: 'search_tools', arguments: { query } });
    expect(result.isError).toBe(false);
    const found = result.structuredContent as Found;
    for (const tool of found.data.tools) expect(tool.inputSchema).toMatchObject({ type: 'object' });
    return found.data.tools.map((tool) => tool.name);
  }

  it('lists the search tools instead of the catalog', async () => {
    const client = await clientWith('key-plain-0123456789');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
  });

  it('finds tools by words of their names, descriptions and arguments, best first', async () => {
    const client = await clientWith('key-billing-0123456789');
    expect((await search(client, 'weather forecast'))[0]).toBe('get_weather');
    expect(await search(client, 'city')).toEqual(['get_weather']);
    expect(await search(client, 'invoice email')).toEqual(['send_invoice']);
    expect(await search(client, 'weather')).toEqual(expect.arrayContaining(['get_weather', 'beta_weather_report']));
    expect(await search(client, 'zebra')).toEqual([]);
  });

  it('never shows a caller a tool it may not see (scopes, visibleTo)', async () => {
    const client = await clientWith('key-plain-0123456789');
    expect(await search(client, 'invoice email')).toEqual([]);
    expect(await search(client, 'weather')).toEqual(['get_weather']);
  });

  it('calls a found tool through call_tool, with its validation, and refuses a hidden one like a missing one', async () => {
    const client = await clientWith('key-plain-0123456789');
    const result = await client.callTool({ name: 'call_tool', arguments: { name: 'get_weather', arguments: { city: 'Paris' } } });
    expect(JSON.stringify(result.content)).toContain('Sunny in Paris');
    const invalid = await client.callTool({ name: 'call_tool', arguments: { name: 'get_weather', arguments: { city: 7 } } });
    expect(invalid.isError).toBe(true);
    await expect(client.callTool({ name: 'call_tool', arguments: { name: 'beta_weather_report', arguments: {} } })).rejects.toThrow(
      /Unknown tool: beta_weather_report/,
    );
    // Every tool stays callable by its own name.
    const direct = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(JSON.stringify(direct.content)).toContain('Sunny in Oslo');
  });

  it('a tool called through call_tool gets its call signal, as when called by name', async () => {
    const client = await clientWith('key-plain-0123456789');
    const direct = await client.callTool({ name: 'cancellation_probe', arguments: {} });
    expect(direct.structuredContent).toEqual({ status: 'success', data: { aborted: false } });
    const found = await client.callTool({ name: 'call_tool', arguments: { name: 'cancellation_probe', arguments: {} } });
    expect(found.isError).toBe(false);
    expect(found.structuredContent).toEqual({ status: 'success', data: { aborted: false } });
  });

  it('2026-07-28: search_tools and call_tool work on the stateless revision too', async () => {
    const found = await call2026(
      app.url,
      1,
      'tools/call',
      { name: 'search_tools', arguments: { query: 'currency' } },
      {
        headers: bearer('key-plain-0123456789'),
      },
    );
    expect(found.json.result.structuredContent.data.tools.map((tool: { name: string }) => tool.name)).toEqual(['convert_currency']);
    const called = await call2026(
      app.url,
      2,
      'tools/call',
      { name: 'call_tool', arguments: { name: 'convert_currency', arguments: {} } },
      {
        headers: bearer('key-plain-0123456789'),
      },
    );
    expect(called.json.result.structuredContent).toEqual({ status: 'success', data: 42 });
    const hidden = await call2026(
      app.url,
      3,
      'tools/call',
      { name: 'call_tool', arguments: { name: 'send_invoice', arguments: {} } },
      {
        headers: bearer('key-plain-0123456789'),
      },
    );
    // Scopes refuse a call with 403 (step-up), the same answer as calling send_invoice by its name.
    const direct = await call2026(
      app.url,
      4,
      'tools/call',
      { name: 'send_invoice', arguments: {} },
      { headers: bearer('key-plain-0123456789') },
    );
    expect(hidden.status).toBe(direct.status);
  });
});

describe('tool search (tools.search: beside)', () => {
  let app: RunningApp;
  afterAll(() => app?.close());

  it('lists the whole catalog and search_tools with it', async () => {
    app = await listenMcp({ name: 'search', version: '1.0.0', tools: { search: { mode: 'beside' } } }, [CatalogTools]);
    const client = new Client({ name: 'search-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'get_weather',
        'convert_currency',
        'send_invoice',
        'cancellation_probe',
        'search_tools',
      ]);
      const result = await client.callTool({ name: 'search_tools', arguments: { query: 'currency', limit: 1 } });
      expect((result.structuredContent as Found).data.tools.map((tool) => tool.name)).toEqual(['convert_currency']);
    } finally {
      await client.close();
    }
  });
});

@Injectable()
class ReportTools {
  @McpTool({ description: 'Builds the quarterly sales report, which takes a while', job: true })
  buildReport() {
    return 'report';
  }
}

describe('tool search after tools.transforms, with job tools (replace)', () => {
  let app: RunningApp;
  afterAll(() => app?.close());

  it('finds and calls tools by the names the transforms gave them, and finds the job tools', async () => {
    app = await listenMcp(
      { name: 'search', version: '1.0.0', tools: { search: { mode: 'replace' }, transforms: [namespaceTools('acme')] } },
      [CatalogTools, ReportTools],
    );
    const client = new Client({ name: 'search-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
      const names = async (query: string) => {
        const result = await client.callTool({ name: 'search_tools', arguments: { query } });
        return (result.structuredContent as Found).data.tools.map((tool) => tool.name);
      };
      expect(await names('currency')).toEqual(['acme_convert_currency']);
      expect((await names('quarterly sales report'))[0]).toBe('acme_build_report');
      expect((await names('job status'))[0]).toBe('get_job_status');
      const result = await client.callTool({ name: 'call_tool', arguments: { name: 'acme_get_weather', arguments: { city: 'Rome' } } });
      expect(JSON.stringify(result.content)).toContain('Sunny in Rome');
    } finally {
      await client.close();
    }
  });
});

describe('tool search on 2026-07-28: call_tool is checked as the tool it names', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startFixture2026({ tools: { search: { mode: 'replace' } } });
  });
  afterAll(() => app?.close());

  it("the named tool's Mcp-Param-* headers are checked (400 -32020, the same error as calling it by name)", async () => {
    const target = { name: 'test_custom_header_param', arguments: { region: 'Hello' } };
    const aliased = { name: 'call_tool', arguments: target };
    const ok = await call2026(app.url, 1, 'tools/call', aliased, { headers: { 'Mcp-Param-Region': '=?base64?SGVsbG8=?=' } });
    expect(ok.status).toBe(200);
    expect(ok.json.result.content[0].text).toBe('Region: Hello');
    const refused = await call2026(app.url, 2, 'tools/call', aliased, { headers: { 'Mcp-Param-Region': 'us-west1' } });
    const direct = await call2026(app.url, 2, 'tools/call', target, { headers: { 'Mcp-Param-Region': 'us-west1' } });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe(-32020);
    expect(refused.json).toEqual(direct.json);
    expect(refused.status).toBe(direct.status);
  });
});
