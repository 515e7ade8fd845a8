import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { IsString, Length } from 'class-validator';
import {
  McpArgs,
  McpClient,
  McpConfigurationError,
  McpContext,
  McpModule,
  McpProperty,
  McpTool,
  withMcpInputKey,
  type McpToolContext,
} from '../index.js';
import { createMcpTestClient } from './index.js';

class CityArgs {
  @McpProperty({ description: 'A city' })
  @IsString()
  @Length(1, 40)
  city: string;
}

/** The MCP server a user's service talks to. */
@Injectable()
class WeatherTools {
  @McpTool({ name: 'forecast', description: 'The forecast of a city' })
  forecast(@McpArgs() args: CityArgs, @McpContext() context: McpToolContext) {
    return { city: args.city, sky: 'clear', caller: context.principal?.subject ?? 'anonymous' };
  }

  @McpTool({ name: 'ask_city', description: 'Asks which city first' })
  async askCity(@McpContext() context: McpToolContext) {
    const answer = await context.elicit(
      withMcpInputKey('city', { message: 'Which city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } }),
    );
    return { city: String(answer.content?.city ?? 'none') };
  }
}

/** The user's service under test: it injects McpClient, as with McpClientModule.register({ url }). */
@Injectable()
class ForecastService {
  constructor(private readonly mcp: McpClient) {}

  async forecast(city: string): Promise<unknown> {
    const result = await this.mcp.callTool('forecast', { city });
    return (result.structuredContent as { data: unknown }).data;
  }

  async askedCity(answer: string): Promise<unknown> {
    const result = await this.mcp.callTool('ask_city', {}, { onRequest: async () => ({ action: 'accept', content: { city: answer } }) });
    return (result.structuredContent as { data: unknown }).data;
  }
}

const SILENT = { log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} };

function compileServer(options: Record<string, unknown> = {}): Promise<TestingModule> {
  return Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0', requestState: { secret: 's'.repeat(40) }, ...options })],
    providers: [WeatherTools],
  })
    .setLogger(SILENT)
    .compile();
}

describe('createMcpTestClient', () => {
  const closing: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const one of closing.splice(0).reverse()) await one.close();
  });

  async function serviceOver(server: TestingModule, options?: Parameters<typeof createMcpTestClient>[1]) {
    const client = createMcpTestClient(server, { capabilities: { elicitation: {} }, ...options });
    const moduleRef = await Test.createTestingModule({ providers: [ForecastService, { provide: McpClient, useValue: client }] }).compile();
    closing.push(client, moduleRef);
    return { service: moduleRef.get(ForecastService), client };
  }

  it("tests a service that injects McpClient against the app's real tools, in the 2026-07-28 era by default", async () => {
    const server = await compileServer();
    closing.push(server);
    const { service, client } = await serviceOver(server);
    await expect(service.forecast('Paris')).resolves.toEqual({ city: 'Paris', sky: 'clear', caller: 'anonymous' });
    expect(client.server).toMatchObject({ protocolVersion: '2026-07-28', transport: 'memory', serverInfo: { name: 'weather' } });
    // A tool's elicitation is an input_required round, answered by the call's onRequest.
    await expect(service.askedCity('Lyon')).resolves.toEqual({ city: 'Lyon' });
    // A validation failure is the tool's error envelope, as over HTTP.
    expect((await client.callTool('forecast', { city: '' })).isError).toBe(true);
  });

  it("speaks initialize when pinned to 'legacy', where the client's onRequest answers elicitation/create", async () => {
    const server = await compileServer();
    closing.push(server);
    const onRequest = async () => ({ action: 'accept', content: { city: 'Rome' } });
    const { service, client } = await serviceOver(server, { protocol: 'legacy', onRequest });
    await expect(service.forecast('Oslo')).resolves.toMatchObject({ city: 'Oslo' });
    expect(client.server?.protocolVersion).toBe('2025-11-25');
    expect((await client.callTool('ask_city')).structuredContent).toEqual({ status: 'success', data: { city: 'Rome' } });
  });

  it('calls as the principal, which an app that authenticates requires', async () => {
    const server = await compileServer({ auth: { apiKeys: [{ key: 'k'.repeat(32), tenant: 'acme', scopes: [] }] } });
    closing.push(server);
    expect(() => createMcpTestClient(server)).toThrow(McpConfigurationError);
    expect(() => createMcpTestClient(server)).toThrow(/authenticates its callers/);
    const { service } = await serviceOver(server, { principal: { subject: 'alice', tenant: 'acme' } });
    await expect(service.forecast('Nice')).resolves.toMatchObject({ caller: 'alice' });
  });

  it('names the fix for an app without McpModule and for a bad principal', async () => {
    const empty = await Test.createTestingModule({ providers: [] }).compile();
    closing.push(empty);
    expect(() => createMcpTestClient(empty)).toThrow(/no McpModule; import McpModule\.forRoot/);
    const server = await compileServer();
    closing.push(server);
    expect(() => createMcpTestClient(server, { principal: { subject: '' } })).toThrow(/needs a non-empty subject/);
  });
});
