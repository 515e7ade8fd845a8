import { Injectable } from '@nestjs/common';
import { McpConfigurationError, McpTool, McpToolRegistry, namespaceTools, renameTool } from '../../index.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { bootError, bootMcp, closeMcpApps, dispatch } from '../../../../../test/kit/boot-mcp.js';

@Injectable()
class ReportTools {
  @McpTool({ description: 'Builds a long report', job: true })
  buildReport() {
    return 'report';
  }

  @McpTool({ description: 'Says hello' })
  hello() {
    return 'hello';
  }
}

@Injectable()
class PlainTools {
  @McpTool({ description: 'Says hello' })
  hello() {
    return 'hello';
  }
}

async function listed(app: Awaited<ReturnType<typeof bootMcp>>): Promise<string[]> {
  const response = (await dispatch(app, 'tools/list', {})) as unknown as { result: { tools: { name: string }[] } };
  return response.result.tools.map((tool) => tool.name);
}

describe('McpJobToolsProvider', () => {
  afterEach(closeMcpApps);

  it('serves get_job_status and cancel_job after the catalogue when a tool runs as a job, and declares tasks', async () => {
    const app = await bootMcp([ReportTools]);
    expect(await listed(app)).toEqual(['build_report', 'hello', 'get_job_status', 'cancel_job']);
    expect(app.get(McpCapabilities).has('tasks')).toBe(true);
  });

  it('serves neither, and no tasks capability, when no tool runs as a job', async () => {
    const app = await bootMcp([PlainTools]);
    expect(await listed(app)).toEqual(['hello']);
    expect(app.get(McpToolRegistry).has('get_job_status')).toBe(false);
    expect(app.get(McpCapabilities).has('tasks')).toBe(false);
  });

  it('is left as it is by tools.transforms: the library names its tools in job results and docs', async () => {
    const app = await bootMcp([ReportTools], { options: { tools: { transforms: [namespaceTools('acme')] } } });
    expect(await listed(app)).toEqual(['acme_build_report', 'acme_hello', 'get_job_status', 'cancel_job']);
    // The job tools are not among the tools a transformation picks from.
    const error = await bootError(() => bootMcp([ReportTools], { options: { tools: { transforms: [renameTool('cancel_job', 'stop')] } } }));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('"cancel_job"');
  });

  it('fails the boot when an app tool ends up with one of their names, naming both sites', async () => {
    const error = await bootError(() =>
      bootMcp([ReportTools], { options: { tools: { transforms: [renameTool('hello', 'get_job_status')] } } }),
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('ReportTools#hello');
    expect(error.message).toContain('McpModule#get_job_status');
  });
});
