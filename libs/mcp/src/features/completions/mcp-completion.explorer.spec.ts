import 'reflect-metadata';
import { Injectable, type INestApplication } from '@nestjs/common';
import {
  McpCompletion,
  McpConfigurationError,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  type McpCompletionContext,
} from '../../index.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { bootMcp, bootError, closeMcpApps } from '../../../../../test/kit/boot-mcp.js';

const CONTEXT: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25' };
const PROMPT_REF = { type: 'ref/prompt', name: 'test_prompt_with_arguments' } as const;
const TEMPLATE_REF = { type: 'ref/resource', uri: 'test://template/{id}/data' } as const;

async function complete(app: INestApplication, params?: Record<string, unknown>): Promise<any> {
  return app.get(McpDispatcher).dispatch({ jsonrpc: '2.0', id: 1, method: 'completion/complete', ...(params && { params }) }, CONTEXT);
}

afterEach(closeMcpApps);

const LANGUAGES = ['go', 'golang', 'python', 'typescript'];

@Injectable()
class Features {
  @McpPrompt({
    description: 'd',
    arguments: [
      { name: 'arg1', required: true },
      { name: 'arg2', required: true },
      { name: 'language' },
      { name: 'broken' },
      { name: 'nonsense' },
    ],
  })
  testPromptWithArguments(args: Record<string, string>) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'test://template/{id}/data', name: 'data' })
  data(params: { id: string }) {
    return params.id;
  }

  @McpResource({ uri: 'test://static', name: 'static' })
  fixed() {
    return 'x';
  }
}

@Injectable()
class Completers {
  @McpCompletion({ ref: PROMPT_REF, argument: 'language' })
  languages(value: string, context: McpCompletionContext) {
    return LANGUAGES.filter((language) => language.startsWith(value)).map((language) =>
      context.arguments.arg1 ? `${language}@${context.arguments.arg1}` : language,
    );
  }

  @McpCompletion({ ref: PROMPT_REF, argument: 'arg2' })
  @McpCompletion({ ref: TEMPLATE_REF, argument: 'id' })
  many(value: string, context: McpCompletionContext) {
    const values = Array.from({ length: 250 }, (_, index) => `${value}${index}`);
    return context.argument.name === 'id' ? { values: values.slice(0, 3), total: 3, hasMore: false } : values;
  }

  @McpCompletion({ ref: PROMPT_REF, argument: 'broken' })
  broken(): string[] {
    throw new Error('secret hunter2');
  }

  @McpCompletion({ ref: PROMPT_REF, argument: 'nonsense' })
  nonsense() {
    return 'not an array';
  }
}

describe('completion/complete', () => {
  it('is -32601 and undeclared when there is nothing to complete', async () => {
    @Injectable()
    class OnlyTools {
      @McpTool({ description: 'd' })
      tool() {
        return 1;
      }

      @McpResource({ uri: 'test://static', name: 'static' })
      fixed() {
        return 'x';
      }
    }
    const app = await bootMcp([OnlyTools]);
    const init = await app
      .get(McpDispatcher)
      .dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, CONTEXT);
    expect((init as any).result.capabilities.completions).toBeUndefined();
    expect(await complete(app, { ref: PROMPT_REF, argument: { name: 'arg1', value: '' } })).toMatchObject({ error: { code: -32601 } });
  });

  it('declares completions, and calls the completer with the value and the context', async () => {
    const app = await bootMcp([Features, Completers]);
    const init = await app
      .get(McpDispatcher)
      .dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, CONTEXT);
    expect((init as any).result.capabilities.completions).toEqual({});
    expect(await complete(app, { ref: PROMPT_REF, argument: { name: 'language', value: 'go' } })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { completion: { values: ['go', 'golang'] } },
    });
    expect(
      (await complete(app, { ref: PROMPT_REF, argument: { name: 'language', value: 'py' }, context: { arguments: { arg1: 'x' } } })).result,
    ).toEqual({
      completion: { values: ['python@x'] },
    });
  });

  it('answers an argument without a completer with no values (the conformance scenario)', async () => {
    const app = await bootMcp([Features, Completers]);
    expect((await complete(app, { ref: PROMPT_REF, argument: { name: 'arg1', value: 'test' } })).result).toEqual({
      completion: { values: [] },
    });
  });

  it('cuts a long list to 100 values with hasMore and total', async () => {
    const app = await bootMcp([Features, Completers]);
    const { result } = await complete(app, { ref: PROMPT_REF, argument: { name: 'arg2', value: 'v' } });
    expect(result.completion.values).toHaveLength(100);
    expect(result.completion).toMatchObject({ total: 250, hasMore: true });
  });

  it('completes template variables, by template or by a matching URI', async () => {
    const app = await bootMcp([Features, Completers]);
    expect((await complete(app, { ref: TEMPLATE_REF, argument: { name: 'id', value: 'a' } })).result).toEqual({
      completion: { values: ['a0', 'a1', 'a2'], total: 3, hasMore: false },
    });
    expect(
      (await complete(app, { ref: { type: 'ref/resource', uri: 'test://template/1/data' }, argument: { name: 'id', value: 'b' } })).result
        .completion.values,
    ).toEqual(['b0', 'b1', 'b2']);
  });

  it.each<[string, Record<string, unknown> | undefined]>([
    ['no params', undefined],
    ['no ref', { argument: { name: 'arg1', value: '' } }],
    ['an unknown ref type', { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'arg1', value: '' } }],
    ['a prompt ref without name', { ref: { type: 'ref/prompt' }, argument: { name: 'arg1', value: '' } }],
    ['a resource ref without uri', { ref: { type: 'ref/resource', name: 'x' }, argument: { name: 'id', value: '' } }],
    ['no argument', { ref: PROMPT_REF }],
    ['an argument without value', { ref: PROMPT_REF, argument: { name: 'arg1' } }],
    ['a numeric value', { ref: PROMPT_REF, argument: { name: 'arg1', value: 1 } }],
    ['a context that is not an object', { ref: PROMPT_REF, argument: { name: 'arg1', value: '' }, context: 'x' }],
    ['non-string context arguments', { ref: PROMPT_REF, argument: { name: 'arg1', value: '' }, context: { arguments: { arg2: 2 } } }],
    ['an unknown prompt', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'arg1', value: '' } }],
    ['an undeclared prompt argument', { ref: PROMPT_REF, argument: { name: 'zzz', value: '' } }],
    ['an unknown resource', { ref: { type: 'ref/resource', uri: 'test://nope/{x}' }, argument: { name: 'x', value: '' } }],
    ['a fixed resource (no arguments)', { ref: { type: 'ref/resource', uri: 'test://static' }, argument: { name: 'x', value: '' } }],
  ])('answers %s with -32602', async (_label, params) => {
    const app = await bootMcp([Features, Completers]);
    expect(await complete(app, params)).toMatchObject({ error: { code: -32602 } });
  });

  it('answers a throwing completer or an unsupported result with a bare -32603', async () => {
    const app = await bootMcp([Features, Completers]);
    const broken = await complete(app, { ref: PROMPT_REF, argument: { name: 'broken', value: '' } });
    expect(broken.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(broken)).not.toContain('hunter2');
    expect((await complete(app, { ref: PROMPT_REF, argument: { name: 'nonsense', value: '' } })).error).toEqual({
      code: -32603,
      message: 'Internal error',
    });
  });

  describe('boot errors', () => {
    function completerClass(options: Parameters<typeof McpCompletion>[0]) {
      @Injectable()
      class BadCompleter {
        @McpCompletion(options)
        suggest() {
          return [];
        }
      }
      return BadCompleter;
    }

    it.each<[string, Parameters<typeof McpCompletion>[0], string]>([
      ['an unknown prompt', { ref: { type: 'ref/prompt', name: 'nope' }, argument: 'arg1' }, 'prompt "nope"'],
      ['an undeclared prompt argument', { ref: PROMPT_REF, argument: 'zzz' }, 'only "arg1"'],
      [
        'an unknown template',
        { ref: { type: 'ref/resource', uri: 'test://template/1/data' }, argument: 'id' },
        'resource template "test://template/1/data"',
      ],
      ['an undeclared variable', { ref: TEMPLATE_REF, argument: 'name' }, 'only "id"'],
      ['a fixed resource', { ref: { type: 'ref/resource', uri: 'test://static' }, argument: 'x' }, 'resource template "test://static"'],
      ['a bad ref type', { ref: { type: 'ref/tool', name: 'x' } as never, argument: 'x' }, 'ref'],
      ['no argument', { ref: PROMPT_REF } as never, 'argument'],
    ])('refuses a completer for %s, naming the method', async (_label, options, fragment) => {
      const error = await bootError(() => bootMcp([Features, completerClass(options)]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('BadCompleter#suggest');
      expect(error.message).toContain(fragment);
    });

    it('refuses two completers for one argument, naming both methods', async () => {
      @Injectable()
      class Again {
        @McpCompletion({ ref: PROMPT_REF, argument: 'language' })
        again() {
          return [];
        }
      }
      const error = await bootError(() => bootMcp([Features, Completers, Again]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('Completers#languages');
      expect(error.message).toContain('Again#again');
    });
  });
});
