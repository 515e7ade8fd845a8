import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpTool, type McpToolDescriptor, type McpToolFilter } from '@nest-mcp/core';
import { call2026 } from './support/requests.js';
import { appForBlock } from '../kit/app-for-block.js';
import { listen } from '../kit/apps.js';

/** Counts how often visibility asks about each tool. */
@Injectable()
class CountingFilter implements McpToolFilter {
  readonly asked = new Map<string, number>();

  isVisible(tool: McpToolDescriptor): boolean {
    this.asked.set(tool.name, (this.asked.get(tool.name) ?? 0) + 1);
    return true;
  }
}

@Injectable()
class EchoTools {
  @McpTool({ name: 'echo_once', description: 'Answers ok' })
  echo() {
    return { ok: true };
  }
}

/** A 2026-07-28 `tools/call` decides the tool's visibility once: user filters and guard probes run once per call. */
describe('2026-07-28 tools/call computes visibility once per request', () => {
  const fixture = appForBlock(() => {
    @Module({
      imports: [McpModule.forRoot({ name: 'visibility-once', version: '1.0.0', tools: { filters: [CountingFilter] } })],
      providers: [CountingFilter, EchoTools],
    })
    class VisibilityOnceModule {}
    return listen([VisibilityOnceModule]);
  });

  it('asks the toolFilters once for the called tool', async () => {
    const filter = fixture.app.get(CountingFilter);
    filter.asked.clear();
    const answer = await call2026(fixture.url, 1, 'tools/call', { name: 'echo_once', arguments: {} });
    expect(answer.status).toBe(200);
    expect(answer.json.result.isError).toBeFalsy();
    expect(filter.asked.get('echo_once')).toBe(1);
  });

  it('asks nothing about a tool that does not exist', async () => {
    const filter = fixture.app.get(CountingFilter);
    filter.asked.clear();
    const answer = await call2026(fixture.url, 2, 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect(answer.json.error.code).toBe(-32602);
    expect(filter.asked.size).toBe(0);
  });
});
