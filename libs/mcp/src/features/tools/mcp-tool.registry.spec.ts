import { Injectable } from '@nestjs/common';
import { McpTool, McpToolRegistry, McpConfigurationError } from '../../index.js';
import { bootError, bootMcp, closeMcpApps, dispatch, thrown } from '../../../../../test/kit/boot-mcp.js';

@Injectable()
class DecoratedTools {
  @McpTool({ description: 'Decorated' })
  decorated() {
    return 'd';
  }
}

const echo = { name: 'echo', description: 'Echo', handler: () => 'e' };

async function registry(options = { lists: { listChanged: { tools: true } } }) {
  const app = await bootMcp([DecoratedTools], { options });
  return { app, tools: app.get(McpToolRegistry) };
}

describe('McpToolRegistry runtime API', () => {
  afterEach(closeMcpApps);

  it('register, duplicate, replace, remove', async () => {
    const { app, tools } = await registry();
    const handle = tools.register(echo);
    expect(tools.has('echo')).toBe(true);
    const duplicate = thrown(() => tools.register(echo));
    expect(duplicate).toBeInstanceOf(McpConfigurationError);
    expect(duplicate.message).toContain('McpToolRegistry.register("echo"): the tool name is taken');
    expect(thrown(() => tools.register({ ...echo, name: 'decorated' })).message).toContain('DecoratedTools#decorated');
    handle.replace({ description: 'Echo 2', handler: () => 'e2' });
    const list = (await dispatch(app, 'tools/list')) as unknown as { result: { tools: { name: string; description: string }[] } };
    expect(list.result.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ['decorated', 'Decorated'],
      ['echo', 'Echo 2'],
    ]);
    expect(thrown(() => tools.replace({ ...echo, name: 'decorated' })).message).toContain('only tools registered at runtime');
    expect(thrown(() => tools.replace({ ...echo, name: 'never' })).message).toContain('use register()');
    expect(thrown(() => tools.remove('decorated')).message).toContain('only tools registered at runtime');
    expect(handle.remove()).toBe(true);
    expect(handle.remove()).toBe(false);
    expect(((await dispatch(app, 'tools/call', { name: 'echo' })) as { error?: { code: number } }).error?.code).toBe(-32602);
  });

  it.each([
    [{ ...echo, name: 'bad name' }, 'tool name "bad name" is invalid'],
    [{ ...echo, description: '' }, 'needs a "description"'],
    [{ ...echo, handler: undefined }, '"handler" must be a function'],
    [{ ...echo, inputSchema: { type: 'string' } }, 'the root must have "type": "object"'],
    [{ ...echo, inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } }, 'inputSchema is not a valid JSON Schema'],
    [{ ...echo, timeoutMs: -1 }, 'timeoutMs must be a positive integer'],
    [{ ...echo, scopes: ['a b'] }, 'scopes must be an array'],
    [{ ...echo, idempotencyKey: 'key' }, 'idempotencyKey "key" is not a property'],
    [{ ...echo, job: true }, 'long-running tools must be declared with @McpTool'],
    [{ ...echo, descripton: 'x' }, 'did you mean "description"?'],
    [{ ...echo, job: true }, 'long-running tools must be declared with @McpTool({ job: true })).'],
    [{ ...echo, visibleTo: true }, 'visibleTo must be a function'],
  ])('rejects a bad definition: %j', async (definition, message) => {
    const { tools } = await registry();
    const error = thrown(() => tools.register(definition as never));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain(message);
    expect(error.message).not.toMatch(/\?\.$/); // a question ends the sentence: no "?." after a did-you-mean
    expect(tools.has('echo')).toBe(false);
  });

  it('requires lists.listChanged: { tools: true }, naming the fix', async () => {
    const { tools } = await registry({ lists: { listChanged: { tools: false } } });
    expect(thrown(() => tools.register(echo)).message).toContain('set lists: { listChanged: { tools: true } }');
  });

  it('fails the boot on a bad visibleTo or toolFilters entry', async () => {
    @Injectable()
    class BadVisibleTo {
      @McpTool({ description: 'x', visibleTo: 'yes' as never })
      bad() {
        return 1;
      }
    }
    expect((await bootError(() => bootMcp([BadVisibleTo]))).message).toContain('BadVisibleTo#bad: visibleTo must be a function');
    class NotProvided {
      isVisible() {
        return true;
      }
    }
    expect((await bootError(() => bootMcp([], { options: { tools: { filters: [NotProvided] } } }))).message).toContain(
      'NotProvided is not a provider',
    );
  });
});
