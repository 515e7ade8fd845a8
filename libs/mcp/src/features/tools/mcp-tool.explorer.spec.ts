import 'reflect-metadata';
import { Inject, Injectable, Module, Scope, type INestApplication, type Type } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  McpArgs,
  McpConfigurationError,
  McpContext,
  McpModule,
  McpTool,
  McpToolRegistry,
  type McpModuleOptions,
  type McpToolContext,
  type McpToolDescriptor,
} from '../../index.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import { bootMcp, bootError, closeMcpApps } from '../../../../../test/kit/boot-mcp.js';

const BASE_OPTIONS = { name: 'test', version: '1.0.0' };
const EMPTY_SCHEMA = { type: 'object', properties: {}, additionalProperties: false };
const REQUEST_CONTEXT = { transport: 'http', protocolVersion: '2025-11-25' } as const;

function descriptors(app: INestApplication): readonly McpToolDescriptor[] {
  return app.get(McpToolRegistry).listDescriptors();
}

function descriptor(app: INestApplication, name: string): McpToolDescriptor {
  const found = descriptors(app).find((tool) => tool.name === name);
  if (!found)
    throw new Error(
      `no tool ${name}; have ${descriptors(app)
        .map((tool) => tool.name)
        .join(', ')}`,
    );
  return found;
}

async function callTool(app: INestApplication, name: string, args: Record<string, unknown> = {}, id: number | string = 1) {
  const response = await app
    .get(McpDispatcher)
    .dispatch({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, REQUEST_CONTEXT);
  if (!response || !('result' in response)) throw new Error(`tools/call ${name} failed: ${JSON.stringify(response)}`);
  return response.result as { structuredContent: { status: string; data?: unknown; error?: unknown }; isError: boolean };
}

afterEach(closeMcpApps);

// ---------------------------------------------------------------------------------------------------------------
// DTOs and tool classes

class WeatherArgs {
  @IsString()
  city: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(14)
  days?: number;
}

@Injectable()
class WeatherTools {
  @McpTool({ description: 'Current weather' })
  getWeather(@McpArgs() args: WeatherArgs) {
    return { city: args.city };
  }

  @McpTool({
    name: 'forecast-v2',
    description: 'Forecast',
    title: 'Forecast (v2)',
    annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false, idempotentHint: true, title: 'Forecast annotation' },
  })
  getForecast(args: WeatherArgs) {
    return { city: args.city, days: args.days ?? null };
  }

  @McpTool({ description: 'Says hello' })
  sayHello() {
    return 'hello';
  }

  @McpTool({ description: 'Fetches an HTTP status' })
  fetchHTTPStatus(@McpContext() context: McpToolContext) {
    return context.toolName;
  }

  notATool() {
    return 'nope';
  }
}

@Injectable()
class FeatureTools {
  @McpTool({ description: 'A tool from a feature module' })
  featureTool() {
    return 'feature';
  }
}

@Module({ providers: [FeatureTools] })
class FeatureModule {}

@Injectable()
class NestedFeatureTools {
  @McpTool({ description: 'A tool two imports away' })
  deepTool() {
    return 'deep';
  }
}

@Module({ providers: [NestedFeatureTools] })
class InnerModule {}

@Module({ imports: [InnerModule] })
class OuterModule {}

// ---------------------------------------------------------------------------------------------------------------

describe('McpToolExplorer', () => {
  describe('discovery', () => {
    it('finds the @McpTool() methods of a root provider, and only those', async () => {
      const app = await bootMcp([WeatherTools]);
      expect(descriptors(app).map((tool) => tool.name)).toEqual(['get_weather', 'forecast-v2', 'say_hello', 'fetch_http_status']);
      expect(app.get(McpToolRegistry).size).toBe(4);
    });

    it('finds tools of a provider in a separately imported feature module', async () => {
      const app = await bootMcp([], { imports: [FeatureModule] });
      expect(descriptors(app).map((tool) => tool.name)).toEqual(['feature_tool']);
      expect(await callTool(app, 'feature_tool')).toMatchObject({
        isError: false,
        structuredContent: { status: 'success', data: 'feature' },
      });
    });

    it('finds tools in transitively imported modules, next to root providers', async () => {
      const app = await bootMcp([WeatherTools], { imports: [OuterModule, FeatureModule] });
      expect(
        descriptors(app)
          .map((tool) => tool.name)
          .sort(),
      ).toEqual(['deep_tool', 'feature_tool', 'fetch_http_status', 'forecast-v2', 'get_weather', 'say_hello']);
    });

    it('boots with no tools at all', async () => {
      const app = await bootMcp([]);
      expect(app.get(McpToolRegistry).size).toBe(0);
    });
  });

  describe('descriptors', () => {
    it('defaults the name to the method name in snake_case', async () => {
      const app = await bootMcp([WeatherTools]);
      expect(descriptor(app, 'get_weather').description).toBe('Current weather');
      expect(descriptor(app, 'say_hello').description).toBe('Says hello');
      expect(descriptor(app, 'fetch_http_status').description).toBe('Fetches an HTTP status');
    });

    it('uses an explicit name and copies title and annotations', async () => {
      const app = await bootMcp([WeatherTools]);
      const forecast = descriptor(app, 'forecast-v2');
      expect(forecast.title).toBe('Forecast (v2)');
      expect(forecast.annotations).toEqual({
        readOnlyHint: true,
        openWorldHint: false,
        destructiveHint: false,
        idempotentHint: true,
        title: 'Forecast annotation',
      });
      expect(descriptors(app).some((tool) => tool.name === 'get_forecast')).toBe(false);
    });

    it('leaves title, annotations and outputSchema out when not given', async () => {
      const app = await bootMcp([WeatherTools]);
      expect(Object.keys(descriptor(app, 'get_weather')).sort()).toEqual(['description', 'inputSchema', 'name']);
    });

    it('copies annotations rather than sharing the decorator object', async () => {
      const app = await bootMcp([WeatherTools]);
      const first = descriptor(app, 'forecast-v2').annotations;
      const options = Reflect.getMetadata('mcp:tool', WeatherTools.prototype.getForecast) as { annotations: object };
      expect(first).toEqual(options.annotations);
      expect(first).not.toBe(options.annotations);
    });

    it('gives a tool without a DTO the empty object schema', async () => {
      const app = await bootMcp([WeatherTools]);
      expect(descriptor(app, 'say_hello').inputSchema).toEqual(EMPTY_SCHEMA);
      expect(descriptor(app, 'fetch_http_status').inputSchema).toEqual(EMPTY_SCHEMA);
    });

    const weatherSchema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 14 } },
      required: ['city'],
      additionalProperties: false,
    };

    it('gives an @McpArgs() DTO parameter its generated schema', async () => {
      const app = await bootMcp([WeatherTools]);
      expect(descriptor(app, 'get_weather').inputSchema).toEqual(weatherSchema);
    });

    it('takes the first undecorated class parameter as the DTO', async () => {
      const app = await bootMcp([WeatherTools]);
      expect(descriptor(app, 'forecast-v2').inputSchema).toEqual(weatherSchema);
      // ...and passes the validated arguments to it
      expect(await callTool(app, 'forecast-v2', { city: 'Paris', days: 3 })).toMatchObject({
        isError: false,
        structuredContent: { data: { city: 'Paris', days: 3 } },
      });
      expect(await callTool(app, 'forecast-v2', { city: 3 })).toMatchObject({
        isError: true,
        structuredContent: { error: { code: 'VALIDATION_ERROR', fields: ['city'] } },
      });
    });

    it('takes an undecorated first DTO parameter even when a later parameter is @McpContext()', async () => {
      @Injectable()
      class MixedTools {
        @McpTool({ description: 'DTO first, context second' })
        mixed(args: WeatherArgs, @McpContext() context: McpToolContext) {
          return { city: args?.city ?? null, tool: context.toolName };
        }
      }
      const app = await bootMcp([MixedTools]);
      expect(descriptor(app, 'mixed').inputSchema).toEqual(weatherSchema);
      expect(await callTool(app, 'mixed', { city: 'Oslo' })).toMatchObject({
        isError: false,
        structuredContent: { data: { city: 'Oslo', tool: 'mixed' } },
      });
    });

    it('does not take a primitive or interface-typed undecorated first parameter as the DTO', async () => {
      @Injectable()
      class LooseTools {
        @McpTool({ description: 'string param' })
        stringParam(value: string) {
          return value ?? null;
        }

        @McpTool({ description: 'object param' })
        objectParam(value: object) {
          return value ?? null;
        }
      }
      const app = await bootMcp([LooseTools]);
      expect(descriptor(app, 'string_param').inputSchema).toEqual(EMPTY_SCHEMA);
      expect(descriptor(app, 'object_param').inputSchema).toEqual(EMPTY_SCHEMA);
    });

    it('builds an outputSchema covering the envelopes when `output` is given', async () => {
      class OutDto {
        @IsString()
        summary: string;
      }
      @Injectable()
      class OutputTools {
        @McpTool({ description: 'with output', output: OutDto })
        withOutput() {
          return { summary: 'x' };
        }
      }
      const app = await bootMcp([OutputTools]);
      const schema = descriptor(app, 'with_output').outputSchema as { properties: { status: unknown; data: unknown } };
      expect(schema.properties.status).toEqual({ type: 'string', enum: ['success', 'error'] });
      expect(schema.properties.data).toEqual({
        type: 'object',
        properties: { summary: { type: 'string' } },
        required: ['summary'],
        additionalProperties: false,
      });
    });
  });

  describe('boot errors', () => {
    async function toolBootError(tools: Type): Promise<Error> {
      return bootError(() => bootMcp([tools]));
    }

    it('rejects a tool without a description, naming Class#method', async () => {
      @Injectable()
      class NoDescription {
        @McpTool({} as never)
        undocumented() {
          return 1;
        }
      }
      const error = await toolBootError(NoDescription);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.name).toBe('McpConfigurationError');
      expect(error.message).toContain('NoDescription#undocumented');
      expect(error.message).toContain('description');
    });

    it('rejects a blank description', async () => {
      @Injectable()
      class BlankDescription {
        @McpTool({ description: '   ' })
        blank() {
          return 1;
        }
      }
      const error = await toolBootError(BlankDescription);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('BlankDescription#blank');
    });

    it.each([
      ['has space', 'has space'],
      ['65 characters', 'a'.repeat(65)],
      ['a dot', 'dot.name'],
      ['the empty string', ''],
    ])('rejects an invalid tool name (%s)', async (_label, name) => {
      @Injectable()
      class BadName {
        @McpTool({ name, description: 'd' })
        badName() {
          return 1;
        }
      }
      const error = await toolBootError(BadName);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('BadName#badName');
      expect(error.message).toContain(`"${name}"`);
    });

    it('accepts a 64-character name', async () => {
      @Injectable()
      class LongName {
        @McpTool({ name: 'a'.repeat(64), description: 'd' })
        longName() {
          return 1;
        }
      }
      const app = await bootMcp([LongName]);
      expect(descriptors(app).map((tool) => tool.name)).toEqual(['a'.repeat(64)]);
    });

    it('rejects a duplicate name across two classes, naming both sites', async () => {
      @Injectable()
      class FirstTools {
        @McpTool({ name: 'same', description: 'd' })
        one() {
          return 1;
        }
      }
      @Injectable()
      class SecondTools {
        @McpTool({ name: 'same', description: 'd' })
        two() {
          return 2;
        }
      }
      const error = await bootError(() => bootMcp([FirstTools, SecondTools]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('"same"');
      expect(error.message).toContain('FirstTools#one');
      expect(error.message).toContain('SecondTools#two');
    });

    it('rejects a duplicate between a default and an explicit name in different modules', async () => {
      @Injectable()
      class Clash {
        @McpTool({ name: 'feature_tool', description: 'd' })
        other() {
          return 1;
        }
      }
      const error = await bootError(() => bootMcp([Clash], { imports: [FeatureModule] }));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('FeatureTools#featureTool');
      expect(error.message).toContain('Clash#other');
    });

    interface ArgsInterface {
      city: string;
    }

    it('rejects @McpArgs() on an interface-typed parameter', async () => {
      @Injectable()
      class InterfaceArgs {
        @McpTool({ description: 'd' })
        run(@McpArgs() args: ArgsInterface) {
          return args;
        }
      }
      const error = await toolBootError(InterfaceArgs);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('InterfaceArgs#run');
      expect(error.message).toContain('@McpArgs()');
    });

    it('rejects @McpArgs() on an `object` parameter', async () => {
      @Injectable()
      class ObjectArgs {
        @McpTool({ description: 'd' })
        run(@McpArgs() args: object) {
          return args;
        }
      }
      const error = await toolBootError(ObjectArgs);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('ObjectArgs#run');
    });

    it('rejects @McpArgs() on a `string` parameter', async () => {
      @Injectable()
      class StringArgs {
        @McpTool({ description: 'd' })
        run(@McpArgs() args: string) {
          return args;
        }
      }
      const error = await toolBootError(StringArgs);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('StringArgs#run');
    });

    it('rejects @McpArgs() on a later parameter typed as an interface', async () => {
      @Injectable()
      class SecondParamArgs {
        @McpTool({ description: 'd' })
        run(@McpContext() context: McpToolContext, @McpArgs() args: ArgsInterface) {
          return [context, args];
        }
      }
      const error = await toolBootError(SecondParamArgs);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('SecondParamArgs#run');
    });

    it.each([
      ['0', 0],
      ['1.5', 1.5],
      ['-10', -10],
      ['NaN', Number.NaN],
    ])('rejects timeoutMs %s, naming the site', async (label, timeoutMs) => {
      @Injectable()
      class BadTimeout {
        @McpTool({ description: 'd', timeoutMs })
        slow() {
          return 1;
        }
      }
      const error = await toolBootError(BadTimeout);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('BadTimeout#slow');
      expect(error.message).toContain('timeoutMs');
      expect(error.message).toContain(label);
    });
  });

  describe('module options', () => {
    async function optionsError(options: Record<string, unknown>, extras: Record<string, unknown> = {}): Promise<Error> {
      return bootError(() => bootMcp([], { mcp: McpModule.forRoot({ ...BASE_OPTIONS, ...options, ...extras } as McpModuleOptions) }));
    }

    it.each<[string, Record<string, unknown>, string]>([
      ['name with a space', { name: 'my server' }, 'name'],
      ['empty name', { name: '' }, 'name'],
      ['empty version', { version: '' }, 'version'],
      ['non-string version', { version: 1 }, 'version'],
      ['lists.pageSize 0', { lists: { pageSize: 0 } }, 'lists.pageSize'],
      ['lists.pageSize 2.5', { lists: { pageSize: 2.5 } }, 'lists.pageSize'],
      ['tools.timeoutMs -1', { tools: { timeoutMs: -1 } }, 'tools.timeoutMs'],
      ['http.maxBodyBytes 0', { http: { maxBodyBytes: 0 } }, 'http.maxBodyBytes'],
      ['path "/"', { path: '/' }, 'path'],
      ['ssePath equal to path', { path: '/mcp', ssePath: '/mcp' }, 'path'],
      ['sessions.mode "bogus"', { sessions: { mode: 'bogus' } }, 'sessions.mode'],
      ['sessions.idleTtlMs 0', { sessions: { idleTtlMs: 0 } }, 'sessions.idleTtlMs'],
      ['http.streams.keepAliveMs 0', { http: { streams: { keepAliveMs: 0 } } }, 'http.streams.keepAliveMs'],
      ['http.publicUrl ftp://x', { http: { publicUrl: 'ftp://x' } }, 'http.publicUrl'],
      ['http.publicUrl not a URL', { http: { publicUrl: 'not a url' } }, 'http.publicUrl'],
      ['instructions not a string', { instructions: 42 }, 'instructions'],
    ])('rejects %s, naming the option', async (_label, options, option) => {
      const error = await optionsError(options);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain(`"${option}"`);
    });

    it('rejects an async factory that returns no options', async () => {
      const error = await bootError(() =>
        bootMcp([], { mcp: McpModule.forRootAsync({ useFactory: () => undefined as unknown as McpModuleOptions }) }),
      );
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('"options"');
    });

    it('accepts a valid set of options', async () => {
      const app = await bootMcp([WeatherTools], {
        mcp: McpModule.forRoot({
          name: 'my-server_1',
          version: '2.0.0',
          lists: { pageSize: 3 },
          path: 'api/mcp/',
          http: { publicUrl: 'https://example.com/base/' },
          sessions: { mode: 'stateless' },
        }),
      });
      expect(app.get(McpToolRegistry).size).toBe(4);
    });

    it('forRootAsync({ useFactory }) works', async () => {
      const app = await bootMcp([WeatherTools], {
        mcp: McpModule.forRootAsync({ useFactory: () => ({ name: 'async-server', version: '3.1.4' }) }),
      });
      expect(app.get(McpToolRegistry).size).toBe(4);
      const response = await app
        .get(McpDispatcher)
        .dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, REQUEST_CONTEXT);
      expect(response).toMatchObject({ result: { serverInfo: { name: 'async-server', version: '3.1.4' } } });
    });

    it('forRootAsync checks the options the factory returns', async () => {
      const error = await bootError(() =>
        bootMcp([], { mcp: McpModule.forRootAsync({ useFactory: async () => ({ name: 'bad name', version: '1' }) }) }),
      );
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('"name"');
    });
  });

  describe('provider kinds', () => {
    it('registers a useExisting alias once', async () => {
      const app = await bootMcp([WeatherTools, { provide: 'WEATHER_ALIAS', useExisting: WeatherTools }]);
      expect(descriptors(app).map((tool) => tool.name)).toEqual(['get_weather', 'forecast-v2', 'say_hello', 'fetch_http_status']);
    });

    it('registers a useClass provider under a string token', async () => {
      const app = await bootMcp([{ provide: 'FEATURE', useClass: FeatureTools }]);
      expect(descriptors(app).map((tool) => tool.name)).toEqual(['feature_tool']);
      expect(await callTool(app, 'feature_tool')).toMatchObject({ structuredContent: { data: 'feature' } });
    });

    it('survives a provider whose instance has a null prototype', async () => {
      const app = await bootMcp([
        { provide: 'NULL_PROTO', useValue: Object.create(null) },
        { provide: 'NULL_VALUE', useValue: null },
        { provide: 'NUMBER', useValue: 42 },
        FeatureTools,
      ]);
      expect(descriptors(app).map((tool) => tool.name)).toEqual(['feature_tool']);
    });

    it('a request-scoped provider is resolved anew for every call', async () => {
      let created = 0;
      @Injectable({ scope: Scope.REQUEST })
      class ScopedTools {
        readonly instance = ++created;

        constructor(@Inject(REQUEST) readonly request: { mcp?: McpToolContext }) {}

        @McpTool({ description: 'Which instance am I?' })
        whoAmI(@McpContext() context: McpToolContext) {
          return { instance: this.instance, requestTool: this.request?.mcp?.toolName ?? null, requestId: context.requestId };
        }
      }
      const app = await bootMcp([ScopedTools]);
      expect(descriptor(app, 'who_am_i').inputSchema).toEqual(EMPTY_SCHEMA);
      expect(created).toBe(0);
      const first = await callTool(app, 'who_am_i', {}, 'r1');
      const second = await callTool(app, 'who_am_i', {}, 'r2');
      expect(first).toMatchObject({
        isError: false,
        structuredContent: { status: 'success', data: { instance: 1, requestTool: 'who_am_i', requestId: 'r1' } },
      });
      expect(second).toMatchObject({
        isError: false,
        structuredContent: { status: 'success', data: { instance: 2, requestTool: 'who_am_i', requestId: 'r2' } },
      });
      expect(created).toBe(2);
    });

    it('a transient provider is discovered once and its tool works', async () => {
      let created = 0;
      @Injectable({ scope: Scope.TRANSIENT })
      class TransientTools {
        readonly n = ++created;

        @McpTool({ description: 'transient tool' })
        transientTool() {
          return this.n > 0;
        }
      }
      const app = await bootMcp([TransientTools]);
      expect(descriptors(app).map((tool) => tool.name)).toEqual(['transient_tool']);
      expect((await callTool(app, 'transient_tool')).structuredContent).toEqual({ status: 'success', data: true });
    });

    it('a provider depending on a request-scoped one is discovered through its class and works', async () => {
      let created = 0;
      @Injectable({ scope: Scope.REQUEST })
      class PerRequest {
        readonly n = ++created;
      }
      @Injectable()
      class DependentTools {
        constructor(private readonly perRequest: PerRequest) {}

        @McpTool({ description: 'depends on a request-scoped provider' })
        dependent() {
          return this.perRequest.n;
        }
      }
      const app = await bootMcp([PerRequest, DependentTools]);
      expect((await callTool(app, 'dependent')).structuredContent).toEqual({ status: 'success', data: 1 });
      expect((await callTool(app, 'dependent')).structuredContent).toEqual({ status: 'success', data: 2 });
    });
  });

  describe('isolation', () => {
    it('two apps in one process do not share tools', async () => {
      @Injectable()
      class AppATools {
        @McpTool({ description: 'only in A' })
        onlyInA() {
          return 'A';
        }
      }
      @Injectable()
      class AppBTools {
        @McpTool({ description: 'only in B' })
        onlyInB() {
          return 'B';
        }
      }
      const appA = await bootMcp([AppATools]);
      const appB = await bootMcp([AppBTools]);
      expect(descriptors(appA).map((tool) => tool.name)).toEqual(['only_in_a']);
      expect(descriptors(appB).map((tool) => tool.name)).toEqual(['only_in_b']);
      expect(appA.get(McpToolRegistry)).not.toBe(appB.get(McpToolRegistry));
      const crossCall = await appA
        .get(McpDispatcher)
        .dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'only_in_b' } }, REQUEST_CONTEXT);
      expect(crossCall).toMatchObject({ error: { code: -32602 } });
    });

    it('the same tool class in two apps boots twice without a duplicate error', async () => {
      const appA = await bootMcp([WeatherTools]);
      const appB = await bootMcp([WeatherTools]);
      expect(appA.get(McpToolRegistry).size).toBe(4);
      expect(appB.get(McpToolRegistry).size).toBe(4);
    });
  });
});
