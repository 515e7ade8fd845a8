import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpTool, McpToolRegistry } from '../../index.js';
import { bootMcp, closeMcpApps, dispatch } from '../../../../../test/kit/boot-mcp.js';

class CityDto {
  @IsString()
  city: string;
}

class ReportDto {
  @IsString()
  summary: string;
}

@Injectable()
class ReportTools {
  @McpTool({ description: 'A long report', job: true, output: ReportDto })
  slowReport(args: CityDto) {
    return { summary: args.city };
  }

  @McpTool({ description: 'A quick report', output: ReportDto, title: 'Quick', annotations: { readOnlyHint: true } })
  quickReport(args: CityDto) {
    return { summary: args.city };
  }
}

type ListedTool = { name: string; title?: string; execution?: unknown; annotations?: unknown; outputSchema?: any; inputSchema: any };

async function listed(): Promise<Record<string, ListedTool>> {
  const app = await bootMcp([ReportTools], { options: { lists: { listChanged: { tools: true } } } });
  app
    .get(McpToolRegistry)
    .register({ name: 'runtime_report', description: 'Registered at runtime', args: CityDto, output: ReportDto, handler: () => ({}) });
  const answer = (await dispatch(app, 'tools/list')) as unknown as { result: { tools: ListedTool[] } };
  return Object.fromEntries(answer.result.tools.map((tool) => [tool.name, tool]));
}

/** The one assembly behind `@McpTool()` and `McpToolRegistry.register()`: what differs is only what a job tool adds. */
describe('tool descriptors, decorated and registered at runtime', () => {
  afterEach(closeMcpApps);

  it('a job tool admits pending in its output schema and announces optional task support; the others do neither', async () => {
    const tools = await listed();
    expect(tools.slow_report.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.slow_report.outputSchema.properties.status.enum).toEqual(['success', 'error', 'pending']);
    for (const name of ['quick_report', 'runtime_report']) {
      expect(tools[name]).not.toHaveProperty('execution');
      expect(tools[name].outputSchema.properties.status.enum).toEqual(['success', 'error']);
    }
  });

  it('builds the same input and output schemas from the same DTOs either way, and keeps title and annotations', async () => {
    const tools = await listed();
    expect(tools.runtime_report.inputSchema).toEqual(tools.quick_report.inputSchema);
    expect(tools.runtime_report.outputSchema).toEqual(tools.quick_report.outputSchema);
    expect(tools.quick_report).toMatchObject({ title: 'Quick', annotations: { readOnlyHint: true } });
  });
});
