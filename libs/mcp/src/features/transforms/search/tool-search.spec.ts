import { Injectable } from '@nestjs/common';
import { McpConfigurationError, McpTool, McpToolRegistry, namespaceTools } from '../../../index.js';
import { MCP_TOOL_CATALOG_TRANSFORMS } from '../mcp-tool-catalog-transform.interface.js';
import { bootError, bootMcp, closeMcpApps, dispatch, thrown } from '../../../../../../test/kit/boot-mcp.js';

@Injectable()
class Tools {
  @McpTool({ description: 'Gives the weather forecast of a city' })
  getWeather() {
    return 'sunny';
  }
}

async function found(app: Awaited<ReturnType<typeof bootMcp>>, query: string): Promise<string[]> {
  const response = (await dispatch(app, 'tools/call', { name: 'search_tools', arguments: { query } })) as unknown as {
    result: { structuredContent: { data: { tools: { name: string }[] } } };
  };
  return response.result.structuredContent.data.tools.map((tool) => tool.name);
}

describe('McpToolSearchTransform', () => {
  afterEach(closeMcpApps);

  it('keeps the index in step with tools registered, replaced and removed at runtime', async () => {
    const app = await bootMcp([Tools], { options: { tools: { search: { mode: 'beside' } }, lists: { listChanged: { tools: true } } } });
    const registry = app.get(McpToolRegistry);
    expect(await found(app, 'forecast')).toEqual(['get_weather']);
    const handle = registry.register({ name: 'tide_forecast', description: 'Tides of a harbour', handler: () => 'high' });
    // A word of the name weighs more than one of the description.
    expect(await found(app, 'forecast')).toEqual(['tide_forecast', 'get_weather']);
    handle.replace({ description: 'Sea levels', handler: () => 'low' });
    expect(await found(app, 'harbour')).toEqual([]);
    expect(await found(app, 'sea level')).toEqual(['tide_forecast']);
    handle.remove();
    expect(await found(app, 'tide')).toEqual([]);
    // The search tool never finds itself.
    expect(await found(app, 'search tools')).toEqual([]);
  });

  it('is off unless given: no search tool', async () => {
    const app = await bootMcp([Tools]);
    expect(app.get(McpToolRegistry).has('search_tools')).toBe(false);
  });

  it('fails the boot when a tool already has one of its names', async () => {
    @Injectable()
    class Taken {
      @McpTool({ description: 'Mine' })
      callTool() {
        return 'mine';
      }
    }
    const error = await bootError(() => bootMcp([Taken], { options: { tools: { search: {} } } }));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('the tool name "call_tool" is taken by Taken#callTool');
  });

  it('indexes the catalogue as tools.transforms left it, the job tools included', async () => {
    @Injectable()
    class Jobs {
      @McpTool({ description: 'Builds a long report', job: true })
      buildReport() {
        return 'report';
      }
    }
    const app = await bootMcp([Tools, Jobs], { options: { tools: { search: { mode: 'beside' }, transforms: [namespaceTools('acme')] } } });
    expect(await found(app, 'forecast')).toEqual(['acme_get_weather']);
    expect((await found(app, 'job status'))[0]).toBe('get_job_status');
  });

  it('replace mode: tools/list shows the search tools, and the catalogue stays callable by name and through call_tool', async () => {
    const app = await bootMcp([Tools], { options: { tools: { search: { mode: 'replace' } } } });
    const list = (await dispatch(app, 'tools/list', {})) as unknown as { result: { tools: { name: string }[] } };
    expect(list.result.tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
    const text = (response: unknown) => (response as { result: { content: { text: string }[] } }).result.content[0].text;
    const direct = text(await dispatch(app, 'tools/call', { name: 'get_weather', arguments: {} }));
    expect(direct).toContain('sunny');
    expect(text(await dispatch(app, 'tools/call', { name: 'call_tool', arguments: { name: 'get_weather' } }))).toBe(direct);
  });

  it('off: no catalogue transform, so call_tool is an unknown tool and a request pays for none', async () => {
    const app = await bootMcp([Tools]);
    expect(app.get(MCP_TOOL_CATALOG_TRANSFORMS)).toEqual([]);
    const response = (await dispatch(app, 'tools/call', { name: 'call_tool', arguments: { name: 'get_weather' } })) as unknown as {
      error: { code: number; message: string };
    };
    expect(response.error).toMatchObject({ code: -32602, message: 'Unknown tool: call_tool' });
  });

  it('refuses a runtime tool named call_tool: a call of that name is always the alias', async () => {
    const app = await bootMcp([Tools], { options: { tools: { search: {} }, lists: { listChanged: { tools: true } } } });
    const error = thrown(() => app.get(McpToolRegistry).register({ name: 'call_tool', description: 'Mine', handler: () => 'mine' }));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('is taken by the library');
  });
});
