import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { McpArgs, McpTool, McpToolRegistry } from '../../index.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpStandardSchema } from '../../core/standard-schema.js';
import { bootError, bootMcp, closeMcpApps, dispatch } from '../../../../../test/kit/boot-mcp.js';

const zodCity = z.object({ city: z.string().min(2), days: z.number().int().max(14).default(3) });
const report = z.object({ summary: z.string() });

class DtoArgs {
  @IsString()
  city: string;
}

@Injectable()
class MixedTools {
  @McpTool({ description: 'zod', input: zodCity, output: report })
  forecast(@McpArgs() args: z.infer<typeof zodCity>) {
    return { summary: `${args.city} for ${args.days} days`, extra: 'stripped by the output schema' };
  }

  @McpTool({ description: 'valibot', input: v.object({ tags: v.array(v.pipe(v.string(), v.maxLength(3))) }) })
  tags(args: { tags: string[] }) {
    return args.tags.join(',');
  }

  @McpTool({ description: 'arktype', input: type({ n: 'number.integer > 0' }) })
  square(args: { n: number }) {
    return args.n * args.n;
  }

  @McpTool({ description: 'dto' })
  echo(args: DtoArgs) {
    return args.city;
  }

  @McpTool({ description: 'lies about its output', input: z.object({}), output: report })
  liar() {
    return { summary: 42 };
  }
}

type Listed = { name: string; inputSchema: Record<string, any>; outputSchema?: Record<string, any> };

async function listed(app: Awaited<ReturnType<typeof bootMcp>>): Promise<Listed[]> {
  const answer = (await dispatch(app, 'tools/list')) as unknown as { result: { tools: Listed[] } };
  return answer.result.tools;
}

async function call(app: Awaited<ReturnType<typeof bootMcp>>, name: string, args: Record<string, unknown>) {
  const answer = (await dispatch(app, 'tools/call', { name, arguments: args })) as { result: Record<string, any> };
  return answer.result;
}

describe('tools with Standard Schema validators', () => {
  afterEach(closeMcpApps);

  it('lists the schema each vendor converts, beside a DTO tool', async () => {
    const app = await bootMcp([MixedTools]);
    const tools = Object.fromEntries((await listed(app)).map((tool) => [tool.name, tool]));
    expect(tools.forecast.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', default: 3 } },
      required: ['city'],
    });
    expect(tools.forecast.outputSchema?.properties.data).toMatchObject({ type: 'object', properties: { summary: { type: 'string' } } });
    expect(tools.forecast.outputSchema?.properties.data).not.toHaveProperty('$schema');
    expect(tools.tags.inputSchema).toMatchObject({ type: 'object', properties: { tags: { type: 'array', items: { maxLength: 3 } } } });
    expect(tools.square.inputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    expect(tools.echo.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
  });

  it('hands the method the parsed value and checks the output, sending what the output schema parsed', async () => {
    const app = await bootMcp([MixedTools]);
    const result = await call(app, 'forecast', { city: 'Oslo' });
    expect(result.structuredContent).toEqual({ status: 'success', data: { summary: 'Oslo for 3 days' } });
    expect((await call(app, 'square', { n: 4 })).structuredContent).toEqual({ status: 'success', data: 16 });
  });

  it('refuses bad arguments as VALIDATION_ERROR with the issue paths as fields, for each vendor', async () => {
    const app = await bootMcp([MixedTools]);
    const zodRefusal = (await call(app, 'forecast', { city: 'X', days: 20 })).structuredContent;
    expect(zodRefusal).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR', retryable: false, fields: ['city', 'days'] } });
    expect(zodRefusal.error.message).toMatch(/^Invalid arguments: city: .+, days: .+/);
    const valibot = (await call(app, 'tags', { tags: ['ok', 'toolong'] })).structuredContent;
    expect(valibot.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['tags.1'] });
    const ark = (await call(app, 'square', { n: 1.5 })).structuredContent;
    expect(ark.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['n'] });
  });

  it('answers data the output schema refuses with INTERNAL_ERROR, without the issues', async () => {
    const app = await bootMcp([MixedTools]);
    const result = await call(app, 'liar', {});
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(result)).not.toContain('summary');
  });

  it('registers a Standard Schema tool at runtime, validated like a decorated one', async () => {
    const app = await bootMcp([], { options: { lists: { listChanged: { tools: true } } } });
    app.get(McpToolRegistry).register({
      name: 'shout',
      description: 'Upper case',
      args: z.object({ text: z.string().max(5) }),
      handler: (args) => args.text.toUpperCase(),
    });
    expect((await call(app, 'shout', { text: 'abc' })).structuredContent).toEqual({ status: 'success', data: 'ABC' });
    expect((await call(app, 'shout', { text: 'abcdefg' })).structuredContent.error).toMatchObject({ fields: ['text'] });
  });
});

describe('Standard Schema boot errors', () => {
  afterEach(closeMcpApps);

  async function bootWith(options: Parameters<typeof McpTool>[0]): Promise<McpConfigurationError> {
    @Injectable()
    class Tools {
      @McpTool(options)
      tool() {
        return 1;
      }
    }
    return (await bootError(() => bootMcp([Tools]))) as McpConfigurationError;
  }

  it('refuses an input that does not describe an object, naming the tool', async () => {
    const error = await bootWith({ description: 'd', input: z.string() });
    expect(error).toMatchObject({ code: 'MCP_ERR_SCHEMA_NOT_OBJECT' });
    expect(error.message).toContain('Tools#tool');
    expect(error.message).toContain('"type": "string"');
  });

  it('refuses a schema no JSON Schema can be had for, unless inputSchema stands in for it', async () => {
    const opaque: McpStandardSchema = {
      '~standard': { version: 1, vendor: 'homemade', validate: (value) => ({ value }) },
    };
    const error = await bootWith({ description: 'd', input: opaque });
    expect(error).toMatchObject({ code: 'MCP_ERR_SCHEMA_JSON_UNAVAILABLE' });
    expect(error.message).toContain('Tools#tool');
    expect(error.message).toContain('homemade');

    @Injectable()
    class Overridden {
      @McpTool({ description: 'd', input: opaque, inputSchema: { type: 'object', properties: { a: { type: 'string' } } } })
      tool() {
        return 1;
      }
    }
    const app = await bootMcp([Overridden]);
    expect((await listed(app))[0].inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('refuses input beside a DTO parameter, a value that is no validator, and outputSchema alone', async () => {
    @Injectable()
    class Both {
      @McpTool({ description: 'd', input: zodCity })
      tool(args: DtoArgs) {
        return args;
      }
    }
    expect(await bootError(() => bootMcp([Both]))).toMatchObject({ code: 'MCP_ERR_TOOL_INPUT_WITH_DTO' });
    expect(await bootWith({ description: 'd', input: { type: 'object' } as never })).toMatchObject({ code: 'MCP_ERR_SCHEMA_NOT_STANDARD' });
    expect(await bootWith({ description: 'd', outputSchema: { type: 'object' } })).toMatchObject({
      code: 'MCP_ERR_TOOL_OUTPUT_SCHEMA_ALONE',
    });
  });
});
