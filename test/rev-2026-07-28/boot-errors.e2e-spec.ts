import 'reflect-metadata';
import { Injectable, Module, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpConfigurationError, McpModule, McpTaskSupport, McpTool, type McpModuleOptions } from '@nest-mcp/core';

/** Boots a module with one provider; resolves with the error `init()` failed with, if any. */
async function bootError(provider: Type<unknown>, options: Partial<McpModuleOptions> = {}): Promise<unknown> {
  @Module({ imports: [McpModule.forRoot({ name: 'boot', version: '1.0.0', ...options })], providers: [provider] })
  class BootModule {}
  try {
    const moduleRef = await Test.createTestingModule({ imports: [BootModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    await app.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

@Injectable()
class PlainTool {
  @McpTool({ name: 'plain', description: 'Does nothing' })
  plain() {
    return 'ok';
  }
}

@Injectable()
class BadHeaderTool {
  @McpTool({
    name: 'bad_header',
    description: 'Marks a number as a header',
    inputSchema: { type: 'object', properties: { amount: { type: 'number', 'x-mcp-header': 'Amount' } } },
  })
  badHeader() {
    return 'ok';
  }
}

@Injectable()
class TaskSupportWithoutJob {
  @McpTool({ name: 'not_a_job', description: 'Not long-running' })
  @McpTaskSupport({ required: true })
  notAJob() {
    return 'ok';
  }
}

describe('2026-07-28 configuration errors fail the boot, naming the place', () => {
  it('refuses a requestStateSecret shorter than 32 characters (without echoing it)', async () => {
    const error = await bootError(PlainTool, { modern: { requestStateSecret: 'short-secret' } });
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toMatch(/modern\.requestStateSecret/);
    expect((error as Error).message).not.toContain('short-secret');
  });

  it('refuses an x-mcp-header annotation clients would reject (the whole tool would be dropped)', async () => {
    const error = await bootError(BadHeaderTool);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toMatch(/Tool "bad_header".*x-mcp-header.*type string, integer or boolean/);
  });

  it('refuses @McpTaskSupport() on a tool that is not a job', async () => {
    const error = await bootError(TaskSupportWithoutJob);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toMatch(/TaskSupportWithoutJob#notAJob.*job: true/);
  });

  it('boots with a valid modern option group', async () => {
    expect(await bootError(PlainTool, { modern: { requestStateSecret: 'x'.repeat(32), requestStateTtlMs: 60_000, listChanged: { tools: true } } })).toBeUndefined();
  });
});
