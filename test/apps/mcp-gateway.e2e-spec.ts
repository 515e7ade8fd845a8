import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT } from 'jose';
import { SpawnedHelpdeskApi, SpawnedMcpGateway, SpawnedWeatherServer } from '../kit/apps.js';
import { ensureBuilt, ensureGatewayBuilt, ensureHelpdeskBuilt, GATEWAY_MAIN } from '../kit/build.js';
import { eventually } from '../kit/eventually.js';
import { EVERYTHING_LONG_TOOL, EVERYTHING_MAIN } from '../kit/everything.js';
import { StdioServerProcess } from '../kit/stdio.js';

/**
 * The gateway sample as its README runs it (`node dist/apps/mcp-gateway/main.js`): the built weather server over
 * HTTP, the reference server over stdio and the helpdesk by its OpenAPI document (the caller's token forwarded: both
 * verify the same HS256 secret) behind one endpoint, the official SDK client as its caller.
 */
const SECRET = 'gateway-e2e-hs256-secret-0123456789abcdef';

const token = (tenant: string, scope: string) =>
  new SignJWT({ tenant_id: tenant, scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`${tenant}-user`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));

async function connect(url: string, tenant: string, scope: string): Promise<Client> {
  const client = new Client({ name: `gateway-e2e-${tenant}`, version: '1.0.0' });
  const headers = { authorization: `Bearer ${await token(tenant, scope)}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown[] };
type Health = { info?: Record<string, Record<string, unknown>>; details: Record<string, Record<string, unknown>> };

describe('apps/mcp-gateway (built, spawned)', () => {
  let weather: SpawnedWeatherServer;
  let helpdesk: SpawnedHelpdeskApi;
  let gateway: SpawnedMcpGateway;
  let acme: Client;
  let globex: Client;

  beforeAll(async () => {
    await ensureBuilt();
    await ensureGatewayBuilt();
    await ensureHelpdeskBuilt();
    weather = await SpawnedWeatherServer.start({});
    helpdesk = await SpawnedHelpdeskApi.start({ HELPDESK_JWT_SECRET: SECRET });
    gateway = await SpawnedMcpGateway.start({
      MCP_JWT_SECRET: SECRET,
      GATEWAY_UPSTREAMS: JSON.stringify([
        { name: 'weather', url: weather.url },
        { name: 'everything', command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], scopes: ['everything:use'] },
        { name: 'helpdesk', openapi: `${helpdesk.baseUrl}/docs-json`, baseUrl: helpdesk.baseUrl, forwardAuthorization: true },
      ]),
    });
    acme = await connect(gateway.url, 'acme', 'everything:use tickets:read tickets:write');
    globex = await connect(gateway.url, 'globex', '');
  }, 240_000);
  afterAll(async () => {
    await Promise.all([acme?.close(), globex?.close()]);
    await gateway?.stop();
    await weather?.stop('SIGTERM').catch(() => weather.process.kill());
    helpdesk?.process.kill();
  });

  const health = async (): Promise<Health> => (await (await fetch(`${gateway.baseUrl}/health`)).json()) as Health;

  it('lists the namespaced tools and prompts of the three upstreams and calls them', async () => {
    const tools = (await acme.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(
      expect.arrayContaining([
        'weather_get_weather',
        'weather_get_forecast',
        'everything_echo',
        `everything_${EVERYTHING_LONG_TOOL}`,
        'helpdesk_create_ticket',
        'helpdesk_list_tickets',
      ]),
    );
    const ticket = (await acme.callTool({
      name: 'helpdesk_create_ticket',
      arguments: { title: 'Printer on fire', body: 'Third floor', priority: 'high', requester: { email: 'ada@example.com' } },
    })) as ToolResult;
    expect(ticket.structuredContent).toMatchObject({ status: 'success', data: { title: 'Printer on fire' } });
    // The helpdesk's own guard read the forwarded token: a caller without tickets:write is refused there.
    const refused = (await globex.callTool({
      name: 'helpdesk_create_ticket',
      arguments: { title: 'No scope', body: 'x', requester: { email: 'bob@example.com' } },
    })) as ToolResult;
    expect(refused.structuredContent).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
    const prompts = (await acme.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toContain('everything_simple-prompt');

    const report = (await acme.callTool({ name: 'weather_get_weather', arguments: { city: 'Paris' } })) as ToolResult;
    expect(report.structuredContent).toMatchObject({ status: 'success', data: { city: { name: 'Paris' } } });
    const prompt = await acme.getPrompt({ name: 'everything_simple-prompt' });
    expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
  });

  it('relays the progress of a stdio upstream', async () => {
    const progress: number[] = [];
    const done = (await acme.callTool({ name: `everything_${EVERYTHING_LONG_TOOL}`, arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    })) as ToolResult;
    expect(progress).toEqual([1, 2, 3]);
    expect(JSON.stringify(done.content)).toContain('Long running operation completed');
  });

  it('hides the scope-gated upstream from a caller without its scope and refuses its calls', async () => {
    const tools = (await globex.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('weather_get_weather');
    expect(tools.filter((name) => name.startsWith('everything_'))).toEqual([]);
    await expect(globex.callTool({ name: 'everything_echo', arguments: { message: 'hi' } })).rejects.toThrow(/FORBIDDEN/);
  });

  it('gives two tenants two upstream sessions of one HTTP upstream, and /health reports each upstream', async () => {
    await globex.callTool({ name: 'weather_get_weather', arguments: { city: 'Tokyo' } });
    await acme.callTool({ name: 'weather_get_weather', arguments: { city: 'Tokyo' } });
    const report = await health();
    expect(report.details['upstreams.weather']).toMatchObject({ status: 'up', reachable: true, transport: 'http', sessions: 2 });
    expect(report.details['upstreams.everything']).toMatchObject({ status: 'up', reachable: true, transport: 'stdio' });
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
    expect(metrics).toContain('weather_get_weather');
  });

  it('answers UNAVAILABLE within 5 s while an upstream is killed, serves the other, and uses it again after its restart', async () => {
    const port = weather.port;
    await weather.stop('SIGKILL');
    const started = Date.now();
    const down = (await acme.callTool({ name: 'weather_get_weather', arguments: { city: 'Paris' } })) as ToolResult;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(down.structuredContent).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });
    const echoed = (await acme.callTool({ name: 'everything_echo', arguments: { message: 'still here' } })) as ToolResult;
    expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
    await eventually(async () => (await health()).details['upstreams.weather']?.reachable === false, 15_000, '/health sees weather down');

    weather = await SpawnedWeatherServer.start({}, { port });
    const back = (await acme.callTool({ name: 'weather_get_weather', arguments: { city: 'Paris' } })) as ToolResult;
    expect(back.structuredContent).toMatchObject({ status: 'success' });
    await eventually(async () => (await health()).details['upstreams.weather']?.reachable === true, 15_000, '/health sees weather back');
  }, 60_000);

  it('fails the boot on a malformed GATEWAY_UPSTREAMS with one line naming the entry and the field', async () => {
    const child = new StdioServerProcess(GATEWAY_MAIN, [], {
      GATEWAY_UPSTREAMS: JSON.stringify([
        { name: 'weather', url: 'http://127.0.0.1:1/mcp' },
        { name: 'files', command: 'node', args: 'server.js' },
      ]),
    });
    const { code, timedOut } = await child.waitForExit(20_000);
    expect(timedOut).toBe(false);
    expect(code).toBe(1);
    expect(child.stderr).toBe('mcp-gateway: GATEWAY_UPSTREAMS[1].args (files) must be an array of strings\n');
  });
});
