import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpContent, McpContext, McpModule, McpResult, McpTool, type McpModuleOptions, type McpToolContext } from '@nest-mcp/core';
import { REV_2026_07_28_FIXTURES } from '../../../apps/conformance-server/src/rev-2026-07-28/rev-2026-07-28.fixtures.js';
import { FixturePrompts } from '../../../apps/conformance-server/src/prompts/fixture.prompts.js';
import { FixtureResources } from '../../../apps/conformance-server/src/resources/fixture.resources.js';
import { listen, type RunningApp } from '../../kit/apps.js';

/** What the probe tools saw, for assertions. */
@Injectable()
export class ProbeTools {
  readonly aborted: (string | number)[] = [];
  runs = 0;

  @McpTool({ name: 'wait_for_abort', description: 'Waits until its request is cancelled (or 10 s)' })
  async waitForAbort(@McpContext() context: McpToolContext) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        this.aborted.push(context.requestId);
        resolve();
      });
    });
    return McpResult.raw({ content: [McpContent.text('done')] });
  }

  @McpTool({ name: 'count_runs', description: 'Counts its runs, then asks one question (shows that rounds re-run the handler)' })
  async countRuns(@McpContext() context: McpToolContext) {
    this.runs++;
    const answer = await context.elicit({
      message: 'Go on?',
      requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } },
    });
    return McpResult.raw({ content: [McpContent.text(`runs=${this.runs} action=${answer.action}`)] });
  }

  @McpTool({ name: 'progress_and_logs', description: 'Reports progress and logs at two levels' })
  async progressAndLogs(@McpContext() context: McpToolContext) {
    context.reportProgress(1, 2, 'half');
    context.log('debug', 'a debug line');
    context.log('warning', 'a warning line');
    context.reportProgress(2, 2, 'done');
    return McpResult.raw({ content: [McpContent.text('ok')] });
  }
}

export const REQUEST_STATE_SECRET = 'rev-2026-07-28-e2e-request-state-secret-0123456789';

/** The 2026 conformance fixtures (and the 2025 resources and prompts) on a real socket. */
export async function startFixture2026(overrides: Partial<McpModuleOptions> = {}): Promise<RunningApp> {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'fixture-2026-07-28',
        version: '2.0.0',
        instructions: 'Fixture of the 2026-07-28 e2e tests.',
        requestState: { secret: REQUEST_STATE_SECRET },
        lists: { listChanged: { tools: true, prompts: true } },
        ...overrides,
      }),
    ],
    providers: [...REV_2026_07_28_FIXTURES, FixtureResources, FixturePrompts, ProbeTools],
  })
  class Fixture2026Module {}

  return listen([Fixture2026Module]);
}
