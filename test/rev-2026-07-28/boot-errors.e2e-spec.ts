import 'reflect-metadata';
import { Injectable, Module, type Type } from '@nestjs/common';
import { McpConfigurationError, McpModule, McpTaskSupport, McpTool, type McpModuleOptions } from '@nest-mcp/core';
import { initApp } from '../kit/apps.js';

/** Boots a module with one provider; resolves with the error `init()` failed with, if any. */
async function bootError(provider: Type<unknown>, options: Partial<McpModuleOptions> = {}): Promise<unknown> {
  @Module({ imports: [McpModule.forRoot({ name: 'boot', version: '1.0.0', ...options })], providers: [provider] })
  class BootModule {}
  return initApp([BootModule]).then(
    () => undefined,
    (error: unknown) => error,
  );
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
  it('refuses a requestState.secret shorter than 32 characters (without echoing it)', async () => {
    const error = await bootError(PlainTool, { requestState: { secret: 'short-secret' } });
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toMatch(/requestState\.secret/);
    expect((error as Error).message).not.toContain('short-secret');
  });

  it('refuses the option group `modern` of earlier releases, saying it was split into requestState and lists.listChanged', async () => {
    const error = await bootError(PlainTool, {
      modern: { requestStateSecret: 'x'.repeat(32), listChanged: { tools: true } },
    } as Partial<McpModuleOptions>);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toMatch(
      /option "modern" is no longer accepted: it was split into "requestState" .* and "lists.listChanged"/,
    );
    expect((error as Error).message).not.toContain('x'.repeat(32));
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

  it('boots with valid requestState and listChanged options', async () => {
    expect(
      await bootError(PlainTool, { requestState: { secret: 'x'.repeat(32), ttlMs: 60_000 }, lists: { listChanged: { tools: true } } }),
    ).toBeUndefined();
  });
});
