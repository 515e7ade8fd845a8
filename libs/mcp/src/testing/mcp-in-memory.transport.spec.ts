import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { IsString, Length } from 'class-validator';
import { McpArgs, McpConfigurationError, McpContext, McpModule, McpProperty, McpTool, type McpToolContext } from '../index.js';
import { McpInMemoryTransport } from './index.js';

class NameArgs {
  @McpProperty({ description: 'Who' })
  @IsString()
  @Length(1, 20)
  name: string;
}

@Injectable()
class SdkTools {
  @McpTool({ description: 'Greets', scopes: ['greet'] })
  greet(@McpArgs() args: NameArgs, @McpContext() context: McpToolContext) {
    context.reportProgress(1, 1, 'greeted');
    return { greeting: `Hello, ${args.name}!`, subject: context.principal?.subject };
  }

  @McpTool({ description: 'Asks the user for a name (elicitation: a server request through the transport)' })
  async askName(@McpContext() context: McpToolContext) {
    const answer = await context.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return { action: answer.action, name: answer.content?.name };
  }
}

describe('McpInMemoryTransport with the official SDK Client', () => {
  let moduleRef: TestingModule;
  let client: Client;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({ name: 'sdk-spec', version: '2.0.0', auth: { apiKeys: [{ key: 'k'.repeat(32), tenant: 'acme', scopes: [] }] } }),
      ],
      providers: [SdkTools],
    })
      .setLogger({ log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} })
      .compile();
    client = new Client({ name: 'spec', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    await client.connect(new McpInMemoryTransport(moduleRef, { principal: { subject: 'alice', tenant: 'acme', scopes: ['greet'] } }));
  });
  afterAll(async () => {
    await client.close();
    await moduleRef.close();
  });

  it('initializes through the dispatcher (server info, negotiated revision)', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'sdk-spec', version: '2.0.0' });
    expect(client.getServerCapabilities()).toHaveProperty('tools');
  });

  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask_name', 'greet']);
    expect(tools.find((tool) => tool.name === 'greet')?.inputSchema).toMatchObject({ required: ['name'] });
  });

  it('calls a tool as the principal, with progress notifications, and sees validation errors', async () => {
    const progress: unknown[] = [];
    const ok = await client.callTool({ name: 'greet', arguments: { name: 'Bob' } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(ok.structuredContent).toEqual({ status: 'success', data: { greeting: 'Hello, Bob!', subject: 'alice' } });
    expect(progress).toEqual([{ progress: 1, total: 1, message: 'greeted' }]);
    const bad = await client.callTool({ name: 'greet', arguments: { name: '' } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR', fields: ['name'] } });
  });

  it('carries server requests and the client answers both ways (elicitation)', async () => {
    const asked = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(asked.structuredContent).toEqual({ status: 'success', data: { action: 'accept', name: 'Ada' } });
  });

  it('checks its options when the client connects', async () => {
    const other = new Client({ name: 'spec', version: '1.0.0' });
    const error = await other.connect(new McpInMemoryTransport(moduleRef)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toMatch(/McpInMemoryTransport: this app authenticates its callers/);
  });
});
