import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/client';
import { IsString } from 'class-validator';
import { McpArgs, McpModule, McpProperty, McpTool } from '../index.js';
import { McpInMemoryTransport, McpTestClient } from './index.js';

class NameArgs {
  @McpProperty({ description: 'Who' })
  @IsString()
  name: string;
}

@Injectable()
class GreetTools {
  @McpTool({ description: 'Greets' })
  greet(@McpArgs() args: NameArgs) {
    return { greeting: `Hello, ${args.name}!` };
  }
}

/** The in-memory connection enters through the era router, as stdio does: the era a client asks for serves it. */
describe('McpInMemoryTransport and McpTestClient through the era router', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'eras-spec', version: '1.0.0' })],
      providers: [GreetTools],
    }).compile();
  });
  afterAll(() => moduleRef.close());

  it("lets the 2.4 SDK client pick the 2026-07-28 era in 'auto' mode (server/discover probed in place)", async () => {
    const client = new Client({ name: 'spec', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new McpInMemoryTransport(moduleRef));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const called = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(called.structuredContent).toEqual({ status: 'success', data: { greeting: 'Hello, Ada!' } });
    } finally {
      await client.close();
    }
  });

  it("keeps the 2025-11-25 era for the SDK client's default 'legacy' mode (initialize)", async () => {
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(new McpInMemoryTransport(moduleRef));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet']);
    } finally {
      await client.close();
    }
  });

  it('serves McpTestClient in the session era, as before', async () => {
    const client = await McpTestClient.create(moduleRef);
    try {
      expect((await client.callTool('greet', { name: 'Bo' })).envelope).toEqual({
        status: 'success',
        data: { greeting: 'Hello, Bo!' },
      });
    } finally {
      await client.close();
    }
  });
});
