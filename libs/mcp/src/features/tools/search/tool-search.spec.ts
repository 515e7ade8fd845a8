import { Injectable } from '@nestjs/common';
import { McpConfigurationError, McpTool, McpToolRegistry } from '../../../index.js';
import { bootError, bootMcp, closeMcpApps, dispatch } from '../../../../../../test/kit/boot-mcp.js';

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

describe('McpToolSearch', () => {
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
});
