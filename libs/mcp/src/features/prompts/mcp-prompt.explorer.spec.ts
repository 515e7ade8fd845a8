import 'reflect-metadata';
import { Injectable, UseGuards, type CanActivate, type INestApplication } from '@nestjs/common';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  McpArgs,
  McpConfigurationError,
  McpContent,
  McpContext,
  McpPrompt,
  McpProperty,
  type McpPromptContext,
  type McpPromptOptions,
} from '../../index.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { bootMcp, bootError, closeMcpApps } from '../../../../../test/kit/boot-mcp.js';

const CONTEXT: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25' };
const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64');

async function rpc(app: INestApplication, method: string, params?: Record<string, unknown>): Promise<any> {
  return app.get(McpDispatcher).dispatch({ jsonrpc: '2.0', id: 7, method, ...(params && { params }) }, CONTEXT);
}

afterEach(closeMcpApps);

class ReviewArgs {
  @McpProperty({ description: 'The code to review' })
  @IsString()
  @MaxLength(20)
  code: string;

  @McpProperty({ title: 'Language' })
  @IsOptional()
  @IsIn(['go', 'ts'])
  language?: string;
}

@Injectable()
class DenyAll implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

/** Declared once: `prompts/list` shows it as given (the decorator gets a copy, so the lister cannot change it). */
const WITH_ARGUMENTS: McpPromptOptions = {
  name: 'test_prompt_with_arguments',
  title: 'With arguments',
  description: 'A prompt with arguments',
  arguments: [
    { name: 'arg1', description: 'First argument', required: true },
    { name: 'arg2', description: 'Second argument', required: true },
    { name: 'arg3', description: 'Optional' },
  ],
};

@Injectable()
class Prompts {
  @McpPrompt({ description: 'A simple prompt' })
  testSimplePrompt() {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt(structuredClone(WITH_ARGUMENTS))
  withArguments(args: Record<string, string>, context: McpPromptContext) {
    return [
      {
        role: 'user' as const,
        content: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}', arg3=${args.arg3 ?? '-'} (${context.promptName}, ${String(context.requestId)})`,
      },
    ];
  }

  @McpPrompt({ description: 'Reviews code' })
  review(@McpArgs() args: ReviewArgs, @McpContext() context: McpPromptContext) {
    return {
      description: `Review in ${args.language ?? 'any language'}`,
      messages: [
        { role: 'user' as const, content: McpContent.text(`Review: ${args.code}`) },
        { role: 'assistant' as const, content: McpContent.text(`ok (${args instanceof ReviewArgs}, ${context.tenant})`) },
      ],
    };
  }

  @McpPrompt({ description: 'An image prompt' })
  testPromptWithImage() {
    return [
      { role: 'user' as const, content: McpContent.image(PNG_BASE64, 'image/png') },
      { role: 'user' as const, content: McpContent.text('Please analyze the image above.') },
    ];
  }

  @McpPrompt({ description: 'An embedded resource', arguments: [{ name: 'resourceUri', required: true }] })
  testPromptWithEmbeddedResource(args: { resourceUri: string }) {
    return [
      {
        role: 'user' as const,
        content: McpContent.resource({ uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' }),
      },
      { role: 'user' as const, content: 'Please process the embedded resource above.' },
    ];
  }

  @McpPrompt({ description: 'Fails' })
  broken(): string {
    throw new Error('secret hunter2');
  }

  @McpPrompt({ description: 'Returns nonsense' })
  nonsense() {
    return [{ role: 'system', content: 'x' }];
  }

  @McpPrompt({ description: 'Guarded' })
  @UseGuards(DenyAll)
  guarded() {
    return 'never';
  }
}

describe('prompts', () => {
  it('declares nothing without prompts, and prompts/* are -32601', async () => {
    const app = await bootMcp([]);
    const init = await rpc(app, 'initialize', { protocolVersion: '2025-11-25' });
    expect(init.result.capabilities.prompts).toBeUndefined();
    expect(await rpc(app, 'prompts/list')).toMatchObject({ error: { code: -32601 } });
    expect(await rpc(app, 'prompts/get', { name: 'x' })).toMatchObject({ error: { code: -32601 } });
  });

  it('declares prompts and completions when there are prompts', async () => {
    const app = await bootMcp([Prompts, DenyAll]);
    const init = await rpc(app, 'initialize', { protocolVersion: '2025-11-25' });
    expect(init.result.capabilities.prompts).toEqual({});
    expect(init.result.capabilities.completions).toEqual({});
  });

  describe('prompts/list', () => {
    it('lists every prompt with name and description; arguments declared or read from the DTO', async () => {
      const app = await bootMcp([Prompts, DenyAll]);
      const { result } = await rpc(app, 'prompts/list');
      expect(result.nextCursor).toBeUndefined();
      expect(result.prompts.map((prompt: { name: string }) => prompt.name)).toEqual([
        'test_simple_prompt',
        'test_prompt_with_arguments',
        'review',
        'test_prompt_with_image',
        'test_prompt_with_embedded_resource',
        'broken',
        'nonsense',
        'guarded',
      ]);
      for (const prompt of result.prompts) expect(typeof prompt.description).toBe('string');
      expect(result.prompts[0]).toEqual({ name: 'test_simple_prompt', description: 'A simple prompt' });
      expect(result.prompts[1]).toEqual(WITH_ARGUMENTS);
      expect(result.prompts[2].arguments).toEqual([
        { name: 'code', description: 'The code to review', required: true },
        { name: 'language', title: 'Language', required: false },
      ]);
    });

    it('pages with the module pageSize', async () => {
      const app = await bootMcp([Prompts, DenyAll], { options: { lists: { pageSize: 5 } } });
      const first = await rpc(app, 'prompts/list');
      expect(first.result.prompts).toHaveLength(5);
      const second = await rpc(app, 'prompts/list', { cursor: first.result.nextCursor });
      expect(second.result.prompts).toHaveLength(3);
      expect(second.result.nextCursor).toBeUndefined();
      expect(await rpc(app, 'prompts/list', { cursor: 'nope' })).toMatchObject({ error: { code: -32602 } });
    });
  });

  describe('prompts/get', () => {
    let app: INestApplication;
    beforeEach(async () => {
      app = await bootMcp([Prompts, DenyAll]);
    });

    it('turns a returned string into one user text message', async () => {
      expect((await rpc(app, 'prompts/get', { name: 'test_simple_prompt' })).result).toEqual({
        messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
      });
    });

    it('passes declared arguments and the context; a string content becomes a text block', async () => {
      const { result } = await rpc(app, 'prompts/get', {
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'testValue1', arg2: 'testValue2' },
      });
      expect(result.messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'text',
            text: "Prompt with arguments: arg1='testValue1', arg2='testValue2', arg3=- (test_prompt_with_arguments, 7)",
          },
        },
      ]);
    });

    it('validates and passes a DTO instance, and keeps a returned description', async () => {
      const { result } = await rpc(app, 'prompts/get', { name: 'review', arguments: { code: 'x = 1', language: 'go' } });
      expect(result).toEqual({
        description: 'Review in go',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Review: x = 1' } },
          { role: 'assistant', content: { type: 'text', text: 'ok (true, default)' } },
        ],
      });
    });

    it('sends image and embedded resource content', async () => {
      const image = await rpc(app, 'prompts/get', { name: 'test_prompt_with_image' });
      expect(image.result.messages[0]).toEqual({ role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } });
      const embedded = await rpc(app, 'prompts/get', {
        name: 'test_prompt_with_embedded_resource',
        arguments: { resourceUri: 'test://example-resource' },
      });
      expect(embedded.result.messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ]);
    });

    it.each<[string, Record<string, unknown> | undefined, string]>([
      ['no name', undefined, 'prompt name'],
      ['an unknown prompt', { name: 'nope' }, 'Unknown prompt: nope'],
      ['arguments that are not an object', { name: 'test_simple_prompt', arguments: ['a'] }, 'arguments must be an object'],
      ['a missing required argument', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } }, 'arg2'],
      ['no arguments at all', { name: 'test_prompt_with_arguments' }, 'arg1, arg2'],
      ['a numeric value', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 2 } }, 'must be strings (arg2)'],
      ['an unknown argument', { name: 'test_simple_prompt', arguments: { extra: 'x' } }, 'extra'],
      ['a missing DTO-required argument', { name: 'review', arguments: {} }, 'code'],
      ['a DTO validation failure', { name: 'review', arguments: { code: 'x', language: 'cobol' } }, 'language'],
      ['a too-long DTO value', { name: 'review', arguments: { code: 'x'.repeat(21) } }, 'code'],
    ])('answers %s with -32602', async (_label, params, fragment) => {
      const response = await rpc(app, 'prompts/get', params);
      expect(response.error.code).toBe(-32602);
      expect(response.error.message).toContain(fragment);
    });

    it('names the failing fields of a DTO in data', async () => {
      const response = await rpc(app, 'prompts/get', { name: 'review', arguments: { code: 'x', language: 'cobol' } });
      expect(response.error.data).toEqual({ fields: ['language'] });
    });

    it('answers a throwing handler or an unsupported result with a bare -32603', async () => {
      const broken = await rpc(app, 'prompts/get', { name: 'broken' });
      expect(broken.error).toEqual({ code: -32603, message: 'Internal error' });
      expect(JSON.stringify(broken)).not.toContain('hunter2');
      expect((await rpc(app, 'prompts/get', { name: 'nonsense' })).error).toEqual({ code: -32603, message: 'Internal error' });
    });

    it('applies guards', async () => {
      expect((await rpc(app, 'prompts/get', { name: 'guarded' })).error).toMatchObject({ code: -32000, message: 'Forbidden resource' });
    });
  });

  describe('boot errors', () => {
    function promptClass(options: Parameters<typeof McpPrompt>[0]) {
      @Injectable()
      class BadPrompt {
        @McpPrompt(options)
        render() {
          return 'x';
        }
      }
      return BadPrompt;
    }

    it.each<[string, Parameters<typeof McpPrompt>[0], string]>([
      ['a missing description', {} as never, '"description"'],
      ['a blank description', { description: ' ' }, '"description"'],
      ['a name with a space', { name: 'bad name', description: 'd' }, 'bad name'],
      ['a name too long', { name: 'p'.repeat(65), description: 'd' }, 'invalid'],
      ['arguments not an array', { description: 'd', arguments: 'a' as never }, 'array'],
      ['an argument without a name', { description: 'd', arguments: [{ description: 'x' } as never] }, 'argument 0'],
      ['the same argument twice', { description: 'd', arguments: [{ name: 'a' }, { name: 'a' }] }, 'declared twice'],
      ['a non-boolean required', { description: 'd', arguments: [{ name: 'a', required: 'yes' as never }] }, 'boolean'],
    ])('refuses %s, naming the method', async (_label, options, fragment) => {
      const error = await bootError(() => bootMcp([promptClass(options)]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('BadPrompt#render');
      expect(error.message).toContain(fragment);
    });

    it('refuses arguments declared both in the options and by a DTO', async () => {
      @Injectable()
      class Both {
        @McpPrompt({ description: 'd', arguments: [{ name: 'code' }] })
        render(args: ReviewArgs) {
          return args.code;
        }
      }
      const error = await bootError(() => bootMcp([Both]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('Both#render');
      expect(error.message).toContain('not both');
    });

    it('refuses the same prompt name twice, naming both methods', async () => {
      @Injectable()
      class First {
        @McpPrompt({ description: 'd' })
        greet() {
          return 'a';
        }
      }
      @Injectable()
      class Second {
        @McpPrompt({ name: 'greet', description: 'd' })
        hello() {
          return 'b';
        }
      }
      const error = await bootError(() => bootMcp([First, Second]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('"greet"');
      expect(error.message).toContain('First#greet');
      expect(error.message).toContain('Second#hello');
    });
  });
});
