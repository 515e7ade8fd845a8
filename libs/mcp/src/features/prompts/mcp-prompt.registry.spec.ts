import { Injectable } from '@nestjs/common';
import { IsOptional, IsString, Length } from 'class-validator';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../../options/mcp-module-options.interface.js';
import { bootRegistry, closeMcpApps, dispatch, thrown } from '../../../../../test/kit/boot-mcp.js';
import { McpPrompt } from './mcp-prompt.decorator.js';
import { McpPromptRegistry } from './mcp-prompt.registry.js';

@Injectable()
class DecoratedPrompts {
  @McpPrompt({ description: 'Decorated' })
  decorated() {
    return 'd';
  }
}

class TopicArgs {
  @IsString()
  @Length(1, 5)
  topic: string;

  @IsOptional()
  @IsString()
  tone?: string;
}

const greet = {
  name: 'greet',
  description: 'Greets someone',
  arguments: [{ name: 'who', required: true }],
  handler: ({ who }: Record<string, string>) => `Hello ${who}`,
};

async function runtimeRegistry(
  options: Partial<McpModuleOptions> = { lists: { listChanged: { prompts: true } } },
  providers = [DecoratedPrompts],
) {
  const { registry: prompts, ...booted } = await bootRegistry(McpPromptRegistry, providers, options);
  return { ...booted, prompts };
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

describe('McpPromptRegistry runtime API', () => {
  afterEach(closeMcpApps);

  it('register, duplicate, replace, remove; each announces prompts', async () => {
    const { app, prompts, changes } = await runtimeRegistry();
    const handle = prompts.register(greet);
    expect(changes).toEqual(['prompts']);
    expect(thrown(() => prompts.register(greet)).message).toContain('McpPromptRegistry.register("greet"): the prompt name is taken');
    expect(thrown(() => prompts.register({ ...greet, name: 'decorated' })).message).toContain('DecoratedPrompts#decorated');

    const got = (await dispatch(app, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } })) as unknown as Answer;
    expect(got.result).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }] });
    // Declared arguments are enforced like a decorated prompt's.
    expect(((await dispatch(app, 'prompts/get', { name: 'greet' })) as unknown as Answer).error).toMatchObject({ code: -32602 });

    handle.replace({ description: 'Greets warmly', handler: () => 'Hi!' });
    const list = (await dispatch(app, 'prompts/list')) as unknown as { result: { prompts: { name: string; description: string }[] } };
    expect(list.result.prompts.map((prompt) => [prompt.name, prompt.description])).toEqual([
      ['decorated', 'Decorated'],
      ['greet', 'Greets warmly'],
    ]);
    expect(thrown(() => prompts.replace({ ...greet, name: 'decorated' })).message).toContain('only prompts registered at runtime');
    expect(thrown(() => prompts.replace({ ...greet, name: 'never' })).message).toContain('use register()');
    expect(thrown(() => prompts.remove('decorated')).message).toContain('declared by DecoratedPrompts#decorated');
    expect(handle.remove()).toBe(true);
    expect(handle.remove()).toBe(false);
    expect(((await dispatch(app, 'prompts/get', { name: 'greet' })) as unknown as Answer).error).toMatchObject({
      code: -32602,
      message: 'Unknown prompt: greet',
    });
    expect(changes).toHaveLength(3);
  });

  it('takes its arguments from an args DTO and validates them like a decorated prompt', async () => {
    const { app, prompts } = await runtimeRegistry();
    prompts.register({ name: 'explain', description: 'Explains', args: TopicArgs, handler: (args: TopicArgs) => `Explain ${args.topic}` });
    const list = (await dispatch(app, 'prompts/list')) as unknown as { result: { prompts: { name: string; arguments?: unknown[] }[] } };
    expect(list.result.prompts.find((prompt) => prompt.name === 'explain')?.arguments).toEqual([
      { name: 'topic', required: true },
      { name: 'tone', required: false },
    ]);
    const ok = (await dispatch(app, 'prompts/get', { name: 'explain', arguments: { topic: 'DNS' } })) as unknown as Answer;
    expect(ok.result).toMatchObject({ messages: [{ content: { text: 'Explain DNS' } }] });
    const bad = (await dispatch(app, 'prompts/get', { name: 'explain', arguments: { topic: 'far too long' } })) as unknown as Answer;
    expect(bad.error?.code).toBe(-32602);
  });

  it.each([
    [{ ...greet, name: 'bad name' }, 'prompt name "bad name" is invalid'],
    [{ ...greet, description: ' ' }, 'a prompt needs a "description"'],
    [{ ...greet, handler: 'x' }, '"handler" must be a function'],
    [{ ...greet, arguments: [{ name: 'a' }, { name: 'a' }] }, 'argument "a" is declared twice'],
    [{ ...greet, arguments: 'who' }, '"arguments" are invalid'],
    [{ ...greet, args: TopicArgs }, 'either in "arguments" or with an "args" DTO'],
    [{ ...greet, arguments: undefined, args: 'TopicArgs' }, '"args" must be a DTO class'],
    [{ ...greet, argumnts: [] }, 'did you mean "arguments"'],
    [undefined, 'needs a prompt definition object'],
  ])('rejects a bad definition: %j', async (definition, message) => {
    const { prompts, changes } = await runtimeRegistry();
    const error = thrown(() => prompts.register(definition as never));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain(message);
    expect(prompts.has('greet')).toBe(false);
    expect(changes).toEqual([]);
  });

  it('requires lists.listChanged: { prompts: true }, naming the fix', async () => {
    const { prompts } = await runtimeRegistry({ lists: { listChanged: { tools: true } } });
    expect(thrown(() => prompts.register(greet)).message).toBe(
      'McpPromptRegistry.register("greet"): the prompts list changes at runtime, so clients must be told: set lists: { listChanged: { prompts: true } } in McpModule.forRoot().',
    );
  });

  it('with lists.listChanged.prompts, an app without prompts serves the methods and the capability while empty', async () => {
    const { app, prompts } = await runtimeRegistry({ lists: { listChanged: { prompts: true } } }, []);
    const init = (await dispatch(app, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    })) as unknown as { result: { capabilities: Record<string, unknown> } };
    expect(init.result.capabilities.prompts).toEqual({ listChanged: true });
    expect(((await dispatch(app, 'prompts/list')) as unknown as Answer).result).toEqual({ prompts: [] });
    prompts.register(greet);
    expect(((await dispatch(app, 'prompts/get', { name: 'greet', arguments: { who: 'Bo' } })) as unknown as Answer).result).toBeDefined();

    const { app: plain } = await runtimeRegistry({}, []);
    expect(((await dispatch(plain, 'prompts/list')) as unknown as Answer).error?.code).toBe(-32601);
  });
});
