import 'reflect-metadata';
import { jest } from '@jest/globals';
import {
  BadRequestException,
  HttpException,
  Injectable,
  NotFoundException,
  PayloadTooLargeException,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
  type Provider,
} from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { map, type Observable } from 'rxjs';
import {
  McpArgs,
  McpContext,
  McpContent,
  McpExecutionContext,
  McpResult,
  McpTool,
  McpToolError,
  type McpModuleOptions,
  type McpToolContext,
} from '../index.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import type { McpRequestContext } from './mcp-request-context.interface.js';
import { bootMcp, closeMcpApps } from '../../../../test/kit/boot-mcp.js';
import { McpMethodHandlerProvider } from './method-handler.decorator.js';
import type { McpCall, McpMethodHandler } from './method-handler.interface.js';
import type { JsonRpcMessage, JsonRpcResponse } from './json-rpc/json-rpc.types.js';

const CONTEXT: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25' };
const SECRET = 'db password hunter2 at /srv/secret';

type ToolResult = {
  content: Array<{ type: string; text: string }>;
  structuredContent: { status: string; data?: unknown; error?: Record<string, unknown> };
  isError: boolean;
};

async function bootDispatcher(providers: Provider[], options: Partial<McpModuleOptions> = {}): Promise<McpDispatcher> {
  return (await bootMcp(providers, { options })).get(McpDispatcher);
}

afterAll(closeMcpApps);

function resultOf(response: JsonRpcResponse | undefined): Record<string, unknown> {
  if (!response || !('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

function errorOf(response: JsonRpcResponse | undefined): { code: number; message: string } {
  if (!response || !('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

// ---------------------------------------------------------------------------------------------------------------
// Tools

class EchoArgs {
  @IsString()
  city: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  limit = 5;
}

class AddressDto {
  @IsString()
  city: string;
}

class PersonDto {
  @IsString()
  name: string;

  @IsDefined()
  @ValidateNested()
  @Type(() => AddressDto)
  address: AddressDto;
}

@Injectable()
class DenyGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

const interceptorSaw: { type?: string; toolName?: string; args?: unknown } = {};

@Injectable()
class WrapInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    interceptorSaw.type = context.getType<string>();
    const call = McpExecutionContext.from(context);
    interceptorSaw.toolName = call.toolContext.toolName;
    interceptorSaw.args = call.args;
    return next.handle().pipe(map((value) => ({ wrapped: value })));
  }
}

const timeoutSaw = { finished: deferred<boolean>() };
const cancellable = new Map<
  string | number,
  { started: () => void; signal?: AbortSignal; release?: (value: string) => void; reason?: unknown }
>();
const captured: { context?: McpToolContext } = {};

@Injectable()
class DispatcherTools {
  @McpTool({ description: 'Echoes its validated arguments' })
  echo(@McpArgs() args: EchoArgs) {
    return { city: args.city, limit: args.limit, isDto: args instanceof EchoArgs };
  }

  @McpTool({ description: 'Takes a nested DTO' })
  person(@McpArgs() args: PersonDto) {
    return { name: args.name, city: args.address.city };
  }

  @McpTool({ description: 'No arguments' })
  noArgs() {
    return 'ok';
  }

  @McpTool({ description: 'Throws a plain error' })
  boom(): never {
    throw new Error(SECRET);
  }

  @McpTool({ description: 'Rejects asynchronously with a plain error' })
  async asyncBoom(): Promise<never> {
    await sleep(1);
    throw new TypeError(SECRET);
  }

  @McpTool({ description: 'Throws a non-Error value' })
  throwString(): never {
    throw SECRET;
  }

  @McpTool({ description: 'Throws an McpToolError' })
  toolError(): never {
    throw new McpToolError('CITY_NOT_FOUND', 'Unknown city "Atlantis"', { fields: ['city'], retryAfterMs: 250, retryable: true });
  }

  @McpTool({ description: 'Throws a catalogue McpToolError' })
  rateLimited(): never {
    throw new McpToolError('RATE_LIMITED', 'Too many calls');
  }

  @McpTool({ description: 'Throws a NotFoundException' })
  notFound(): never {
    throw new NotFoundException('No such city');
  }

  @McpTool({ description: 'Throws a BadRequestException' })
  badRequest(): never {
    throw new BadRequestException('city must be a known city');
  }

  @McpTool({ description: 'Throws a PayloadTooLargeException' })
  payloadTooLarge(): never {
    throw new PayloadTooLargeException('Payload too big');
  }

  @McpTool({ description: 'Throws an unmapped 4xx HttpException' })
  teapot(): never {
    throw new HttpException('I am a teapot', 418);
  }

  @McpTool({ description: 'Throws a 5xx HttpException' })
  serverError(): never {
    throw new HttpException(SECRET, 502);
  }

  @McpTool({ description: 'McpResult.success' })
  resultSuccess() {
    return McpResult.success({ answer: 42 });
  }

  @McpTool({ description: 'McpResult.error' })
  resultError() {
    return McpResult.error('QUOTA', 'Quota exceeded', { retryAfterMs: 1000 });
  }

  @McpTool({ description: 'McpResult.pending' })
  resultPending() {
    return McpResult.pending({ job_id: 'job-1', poll_url: '/jobs/job-1', estimated_seconds: 12 });
  }

  @McpTool({ description: 'McpResult.raw' })
  resultRaw() {
    return McpResult.raw({ content: [McpContent.text('raw text'), McpContent.image(new Uint8Array([1, 2, 3]), 'image/png')] });
  }

  @McpTool({ description: 'Returns a plain value' })
  plainValue() {
    return { temperature: 21, tags: ['a'] };
  }

  @McpTool({ description: 'Returns an array' })
  arrayValue() {
    return [1, 2, 3];
  }

  @McpTool({ description: 'Returns nothing' })
  returnsUndefined(): void {
    return undefined;
  }

  @McpTool({ description: 'Returns null' })
  returnsNull() {
    return null;
  }

  @McpTool({ description: 'Returns a promise' })
  async asyncValue() {
    await sleep(1);
    return 'later';
  }

  @McpTool({ description: 'Guarded' })
  @UseGuards(DenyGuard)
  guarded() {
    return 'never';
  }

  @McpTool({ description: 'Intercepted' })
  @UseInterceptors(WrapInterceptor)
  intercepted(@McpArgs() args: EchoArgs) {
    return { city: args.city };
  }

  @McpTool({ description: 'Too slow', timeoutMs: 50 })
  async slow(@McpContext() context: McpToolContext) {
    await sleep(500);
    timeoutSaw.finished.resolve(context.signal.aborted);
    return 'late';
  }

  @McpTool({ description: 'Waits until cancelled or released' })
  waitForCancel(@McpContext() context: McpToolContext) {
    const entry = cancellable.get(context.requestId);
    if (!entry) throw new Error(`no entry for ${String(context.requestId)}`);
    entry.signal = context.signal;
    return new Promise<string>((resolve) => {
      entry.release = resolve;
      context.signal.addEventListener('abort', () => {
        entry.reason = context.signal.reason;
        resolve('aborted');
      });
      entry.started();
    });
  }

  @McpTool({ description: 'Reports progress' })
  progress(@McpContext() context: McpToolContext) {
    captured.context = context;
    context.reportProgress(1, 10, 'one');
    context.reportProgress(1); // not increasing: dropped
    context.reportProgress(0.5); // decreasing: dropped
    context.reportProgress(5, 10);
    context.reportProgress(Number.NaN); // dropped
    context.reportProgress(7);
    return 'done';
  }

  @McpTool({ description: 'Logs at several levels' })
  logs(@McpContext() context: McpToolContext) {
    captured.context = context;
    context.log('debug', 'debug line');
    context.log('info', { step: 1 });
    context.log('warning', 'careful', 'my-logger');
    context.log('error', 'broken');
    return 'logged';
  }

  @McpTool({ description: 'Reports its context' })
  whoAmI(@McpContext() context: McpToolContext) {
    return {
      requestId: context.requestId,
      toolName: context.toolName,
      protocolVersion: context.protocolVersion,
      transport: context.transport,
      tenant: context.tenant,
      sessionId: context.sessionId ?? null,
      aborted: context.signal.aborted,
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------

describe('McpDispatcher', () => {
  let dispatcher: McpDispatcher;

  beforeAll(async () => {
    dispatcher = await bootDispatcher([DispatcherTools], {
      title: 'Test Server',
      description: 'A server for tests',
      instructions: 'Call echo first.',
    });
  });

  const call = (
    name: string,
    args?: unknown,
    extra: Record<string, unknown> = {},
    context: McpRequestContext = CONTEXT,
    id: string | number = 1,
  ) =>
    dispatcher.dispatch(
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(args !== undefined && { arguments: args }), ...extra } },
      context,
    );

  const callResult = async (name: string, args?: unknown, extra: Record<string, unknown> = {}, context: McpRequestContext = CONTEXT) =>
    resultOf(await call(name, args, extra, context)) as ToolResult;

  describe('initialize', () => {
    it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('echoes the supported version %s', async (version) => {
      const response = await dispatcher.dispatch(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        },
        CONTEXT,
      );
      expect(resultOf(response).protocolVersion).toBe(version);
    });

    it('answers an unknown version with the latest', async () => {
      const response = await dispatcher.dispatch(
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01' } },
        CONTEXT,
      );
      expect(resultOf(response).protocolVersion).toBe('2025-11-25');
    });

    it.each([
      ['missing', {}],
      ['a number', { protocolVersion: 20251125 }],
      ['empty', { protocolVersion: '' }],
    ])('rejects a protocolVersion that is %s with -32602', async (_label, params) => {
      const response = await dispatcher.dispatch({ jsonrpc: '2.0', id: 'init', method: 'initialize', params }, CONTEXT);
      expect(response).toMatchObject({ jsonrpc: '2.0', id: 'init' });
      expect(errorOf(response).code).toBe(-32602);
    });

    it('rejects an initialize without params with -32602', async () => {
      expect(errorOf(await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize' }, CONTEXT)).code).toBe(-32602);
    });

    it('declares capabilities, serverInfo and instructions', async () => {
      const response = await dispatcher.dispatch(
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
        CONTEXT,
      );
      expect(response).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {}, logging: {} },
          serverInfo: { name: 'test', version: '1.0.0', title: 'Test Server', description: 'A server for tests' },
          instructions: 'Call echo first.',
        },
      });
    });

    it('omits instructions, title and description when not configured', async () => {
      const plain = await bootDispatcher([]);
      const result = resultOf(
        await plain.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, CONTEXT),
      );
      expect(result).toEqual({
        protocolVersion: '2025-11-25',
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: 'test', version: '1.0.0' },
      });
    });
  });

  describe('ping and ids', () => {
    it('ping answers {}', async () => {
      expect(await dispatcher.dispatch({ jsonrpc: '2.0', id: 'p', method: 'ping' }, CONTEXT)).toEqual({
        jsonrpc: '2.0',
        id: 'p',
        result: {},
      });
    });

    it.each<[string, string | number]>([
      ['a string', 'abc'],
      ['a numeric string', '1'],
      ['the number 1', 1],
      ['zero', 0],
      ['the empty string', ''],
      ['a negative number', -7],
      ['a fraction', 1.5],
    ])('echoes an id that is %s with its exact type', async (_label, id) => {
      const response = await dispatcher.dispatch({ jsonrpc: '2.0', id, method: 'ping' }, CONTEXT);
      expect(response?.id).toBe(id);
      expect(typeof response?.id).toBe(typeof id);
    });

    it('echoes the id on error responses too', async () => {
      const response = await dispatcher.dispatch({ jsonrpc: '2.0', id: '42', method: 'nope' }, CONTEXT);
      expect(response?.id).toBe('42');
    });
  });

  describe('invalid messages', () => {
    it.each<[string, unknown, string | number | null]>([
      ['a string', 'ping', null],
      ['null', null, null],
      ['an array', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], null],
      ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 3, method: 'ping' }, 3],
      ['a missing jsonrpc', { id: 'x', method: 'ping' }, 'x'],
      ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
      ['params that are an array', { jsonrpc: '2.0', id: 'arr', method: 'ping', params: [1] }, 'arr'],
      ['params that are a string', { jsonrpc: '2.0', id: 5, method: 'ping', params: 'x' }, 5],
      ['an empty method', { jsonrpc: '2.0', id: 6, method: '' }, 6],
      ['neither request nor response', { jsonrpc: '2.0', id: 7 }, 7],
    ])('answers %s with -32600', async (_label, message, id) => {
      const response = await dispatcher.dispatch(message, CONTEXT);
      expect(response).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
      expect(errorOf(response).message).toMatch(/^Invalid Request: /);
    });

    it('answers an unknown method with -32601 naming it', async () => {
      const response = await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method: 'resources/list' }, CONTEXT);
      expect(response).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: resources/list' } });
    });

    it('does not resolve inherited object members as methods', async () => {
      for (const method of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
        expect(errorOf(await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method }, CONTEXT)).code).toBe(-32601);
      }
    });
  });

  describe('notifications and responses', () => {
    it.each([
      ['notifications/initialized', undefined],
      ['notifications/roots/list_changed', {}],
      ['notifications/cancelled', { requestId: 'unknown' }],
      ['notifications/cancelled', { requestId: { bad: true } }],
      ['notifications/cancelled', undefined],
      ['tools/list', undefined],
      ['some/unknown', undefined],
    ])('answers nothing to the notification %s', async (method, params) => {
      expect(
        await dispatcher.dispatch(
          { jsonrpc: '2.0', method, ...(params !== undefined && { params }) },
          { ...CONTEXT, cancellationScope: 's' },
        ),
      ).toBeUndefined();
    });

    it('answers nothing to client responses', async () => {
      expect(await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, result: {} }, CONTEXT)).toBeUndefined();
      expect(await dispatcher.dispatch({ jsonrpc: '2.0', id: 'x', error: { code: -1, message: 'no' } }, CONTEXT)).toBeUndefined();
    });

    it('does not run a tool for a tools/call notification', async () => {
      const send = jest.fn();
      expect(
        await dispatcher.dispatch({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'logs' } }, { ...CONTEXT, send }),
      ).toBeUndefined();
      expect(send).not.toHaveBeenCalled();
    });
  });

  describe('tools/list', () => {
    it('lists every tool on one page with the default page size', async () => {
      const result = resultOf(await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, CONTEXT));
      const tools = result.tools as Array<{ name: string }>;
      expect(tools.length).toBe(Object.getOwnPropertyNames(DispatcherTools.prototype).length - 1);
      expect(tools[0]).toEqual({
        name: 'echo',
        description: 'Echoes its validated arguments',
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 10, default: 5 } },
          required: ['city'],
          additionalProperties: false,
        },
      });
      expect('nextCursor' in result).toBe(false);
    });

    describe('pagination (pageSize 2, 5 tools)', () => {
      let paged: McpDispatcher;

      beforeAll(async () => {
        @Injectable()
        class FiveTools {
          @McpTool({ description: '1' })
          t1() {}
          @McpTool({ description: '2' })
          t2() {}
          @McpTool({ description: '3' })
          t3() {}
          @McpTool({ description: '4' })
          t4() {}
          @McpTool({ description: '5' })
          t5() {}
        }
        paged = await bootDispatcher([FiveTools], { lists: { pageSize: 2 } });
      });

      const list = (cursor?: unknown) =>
        paged.dispatch({ jsonrpc: '2.0', id: 'l', method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, CONTEXT);
      const names = (result: Record<string, unknown>) => (result.tools as Array<{ name: string }>).map((tool) => tool.name);

      it('pages through all tools with opaque cursors', async () => {
        const first = resultOf(await list());
        expect(names(first)).toEqual(['t1', 't2']);
        expect(typeof first.nextCursor).toBe('string');
        expect(first.nextCursor).not.toMatch(/^\d+$/);

        const second = resultOf(await list(first.nextCursor));
        expect(names(second)).toEqual(['t3', 't4']);
        expect(typeof second.nextCursor).toBe('string');
        expect(second.nextCursor).not.toBe(first.nextCursor);

        const third = resultOf(await list(second.nextCursor));
        expect(names(third)).toEqual(['t5']);
        expect('nextCursor' in third).toBe(false);
      });

      it('a cursor can be reused (stable)', async () => {
        const first = resultOf(await list());
        expect(names(resultOf(await list(first.nextCursor)))).toEqual(['t3', 't4']);
        expect(names(resultOf(await list(first.nextCursor)))).toEqual(['t3', 't4']);
      });

      it.each([
        ['a bogus string', 'bogus'],
        ['a number', 2],
        ['the plain offset', '2'],
        ['an object', { offset: 2 }],
      ])('rejects %s as cursor with -32602', async (_label, cursor) => {
        const response = await list(cursor);
        expect(response).toMatchObject({ id: 'l', error: { code: -32602 } });
      });

      it('a null cursor starts at the beginning', async () => {
        expect(names(resultOf(await list(null)))).toEqual(['t1', 't2']);
      });
    });

    it('sends no nextCursor when the tools exactly fill one page', async () => {
      @Injectable()
      class TwoTools {
        @McpTool({ description: 'a' })
        a() {}
        @McpTool({ description: 'b' })
        b() {}
      }
      const exact = await bootDispatcher([TwoTools], { lists: { pageSize: 2 } });
      const result = resultOf(await exact.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, CONTEXT));
      expect(result).toEqual({ tools: [expect.objectContaining({ name: 'a' }), expect.objectContaining({ name: 'b' })] });
    });
  });

  describe('tools/call: protocol errors', () => {
    it('an unknown tool is -32602 "Unknown tool"', async () => {
      const response = await call('does_not_exist', {});
      expect(response).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: does_not_exist' } });
    });

    it.each([
      ['an array', [1]],
      ['a string', 'city=Paris'],
      ['a number', 1],
      ['true', true],
    ])('arguments that are %s are -32602', async (_label, args) => {
      expect(errorOf(await call('echo', args)).code).toBe(-32602);
    });

    it('a missing name is -32602', async () => {
      const response = await dispatcher.dispatch({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: {} } }, CONTEXT);
      expect(response).toMatchObject({ id: 9, error: { code: -32602 } });
    });

    it('a non-string name is -32602', async () => {
      expect(errorOf(await dispatcher.dispatch({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 5 } }, CONTEXT)).code).toBe(
        -32602,
      );
    });

    it('tools/call without params is -32602', async () => {
      expect(errorOf(await dispatcher.dispatch({ jsonrpc: '2.0', id: 9, method: 'tools/call' }, CONTEXT)).code).toBe(-32602);
    });

    it('null arguments count as none', async () => {
      expect((await callResult('no_args', null)).structuredContent).toEqual({ status: 'success', data: 'ok' });
    });

    it('an inherited member name is an unknown tool', async () => {
      expect(errorOf(await call('constructor', {})).code).toBe(-32602);
      expect(errorOf(await call('toString', {})).code).toBe(-32602);
    });
  });

  describe('tools/call: results', () => {
    it('a plain value becomes a success envelope', async () => {
      const result = await callResult('plain_value');
      const envelope = { status: 'success', data: { temperature: 21, tags: ['a'] } };
      expect(result).toEqual({ content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope, isError: false });
    });

    it('an array value is the data', async () => {
      expect((await callResult('array_value')).structuredContent).toEqual({ status: 'success', data: [1, 2, 3] });
    });

    it('a promise is awaited', async () => {
      expect((await callResult('async_value')).structuredContent).toEqual({ status: 'success', data: 'later' });
    });

    it('undefined becomes data null', async () => {
      const result = await callResult('returns_undefined');
      expect(result.structuredContent).toEqual({ status: 'success', data: null });
      expect(result.content[0].text).toBe('{"status":"success","data":null}');
    });

    it('null stays data null', async () => {
      expect((await callResult('returns_null')).structuredContent).toEqual({ status: 'success', data: null });
    });

    it('McpResult.success passes through', async () => {
      expect(await callResult('result_success')).toEqual({
        content: [{ type: 'text', text: '{"status":"success","data":{"answer":42}}' }],
        structuredContent: { status: 'success', data: { answer: 42 } },
        isError: false,
      });
    });

    it('McpResult.error passes through with isError', async () => {
      const result = await callResult('result_error');
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        status: 'error',
        error: { code: 'QUOTA', message: 'Quota exceeded', retryable: false, retry_after_ms: 1000 },
      });
    });

    it('McpResult.pending passes through without isError', async () => {
      const result = await callResult('result_pending');
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toEqual({
        status: 'pending',
        data: { job_id: 'job-1', poll_url: '/jobs/job-1', estimated_seconds: 12 },
      });
    });

    it('McpResult.raw is sent untouched', async () => {
      expect(await callResult('result_raw')).toEqual({
        content: [
          { type: 'text', text: 'raw text' },
          { type: 'image', data: 'AQID', mimeType: 'image/png' },
        ],
      });
    });

    it('the tool context carries the call', async () => {
      const response = await dispatcher.dispatch(
        { jsonrpc: '2.0', id: 'ctx-1', method: 'tools/call', params: { name: 'who_am_i' } },
        { transport: 'stdio', protocolVersion: '2025-06-18', sessionId: 'sess-9' },
      );
      expect((resultOf(response) as ToolResult).structuredContent.data).toEqual({
        requestId: 'ctx-1',
        toolName: 'who_am_i',
        protocolVersion: '2025-06-18',
        transport: 'stdio',
        tenant: 'default',
        sessionId: 'sess-9',
        aborted: false,
      });
    });

    it('the tenant comes from the principal', async () => {
      const result = await callResult(
        'who_am_i',
        undefined,
        {},
        { ...CONTEXT, principal: { subject: 'u1', tenant: 'acme', scopes: [], claims: {} } },
      );
      expect(result.structuredContent.data).toMatchObject({ tenant: 'acme' });
    });
  });

  describe('tools/call: errors', () => {
    const internal = {
      code: 'INTERNAL_ERROR',
      message: 'The tool failed unexpectedly; the error was logged on the server.',
      retryable: false,
    };

    it.each(['boom', 'async_boom', 'throw_string'])(
      '%s: a plain thrown error is a generic INTERNAL_ERROR without the message or stack',
      async (name) => {
        const result = await callResult(name);
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toEqual({ status: 'error', error: internal });
        const wire = JSON.stringify(result);
        expect(wire).not.toContain('hunter2');
        expect(wire).not.toContain('/srv/secret');
        expect(wire).not.toMatch(/\n\s+at /);
        expect(wire).not.toContain('.ts:');
      },
    );

    it('an McpToolError keeps its code, message, retryable and fields', async () => {
      const result = await callResult('tool_error');
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        status: 'error',
        error: { code: 'CITY_NOT_FOUND', message: 'Unknown city "Atlantis"', retryable: true, fields: ['city'], retry_after_ms: 250 },
      });
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });

    it('an McpToolError with a catalogue code gets the catalogue retryable', async () => {
      expect((await callResult('rate_limited')).structuredContent).toEqual({
        status: 'error',
        error: { code: 'RATE_LIMITED', message: 'Too many calls', retryable: true },
      });
    });

    it('a guard returning false gives a FORBIDDEN envelope', async () => {
      const result = await callResult('guarded');
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        status: 'error',
        error: { code: 'FORBIDDEN', message: 'Forbidden resource', retryable: false },
      });
    });

    it('a NotFoundException gives a NOT_FOUND envelope with its message', async () => {
      expect((await callResult('not_found')).structuredContent).toEqual({
        status: 'error',
        error: { code: 'NOT_FOUND', message: 'No such city', retryable: false },
      });
    });

    it('a BadRequestException thrown by a tool gives a VALIDATION_ERROR envelope with its message', async () => {
      expect((await callResult('bad_request')).structuredContent).toEqual({
        status: 'error',
        error: { code: 'VALIDATION_ERROR', message: 'city must be a known city', retryable: false },
      });
    });

    it('a PayloadTooLargeException thrown by a tool keeps its message (a 4xx is meant for the caller)', async () => {
      const error = (await callResult('payload_too_large')).structuredContent.error as { code: string; message: string };
      expect(['PAYLOAD_TOO_LARGE', 'REQUEST_REJECTED']).toContain(error.code);
      expect(error.message).toBe('Payload too big');
    });

    it('an unmapped 4xx HttpException gives REQUEST_REJECTED with its message', async () => {
      expect((await callResult('teapot')).structuredContent).toEqual({
        status: 'error',
        error: { code: 'REQUEST_REJECTED', message: 'I am a teapot', retryable: false },
      });
    });

    it('a 5xx HttpException is a generic INTERNAL_ERROR without its message', async () => {
      expect((await callResult('server_error')).structuredContent).toEqual({ status: 'error', error: internal });
    });
  });

  describe('tools/call: guards and interceptors', () => {
    it('an interceptor can transform the result and sees the MCP context', async () => {
      const result = await callResult('intercepted', { city: 'Lyon' });
      expect(result.structuredContent).toEqual({ status: 'success', data: { wrapped: { city: 'Lyon' } } });
      expect(interceptorSaw.type).toBe('mcp');
      expect(interceptorSaw.toolName).toBe('intercepted');
      expect(interceptorSaw.args).toBeInstanceOf(EchoArgs);
      expect(interceptorSaw.args).toMatchObject({ city: 'Lyon', limit: 5 });
    });

    it('McpExecutionContext.from() rejects a non-MCP context', () => {
      const httpContext = { getType: () => 'http' } as unknown as ExecutionContext;
      expect(() => McpExecutionContext.from(httpContext)).toThrow('McpExecutionContext.from() needs an MCP context, got "http"');
    });
  });

  describe('tools/call: timeout', () => {
    it('answers TIMEOUT (retryable) after timeoutMs and aborts the signal', async () => {
      const started = Date.now();
      const result = await callResult('slow');
      const elapsed = Date.now() - started;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        status: 'error',
        error: { code: 'TIMEOUT', message: 'The tool did not finish within 50 ms.', retryable: true },
      });
      expect(elapsed).toBeGreaterThanOrEqual(45);
      expect(elapsed).toBeLessThan(400);
      expect(await timeoutSaw.finished.promise).toBe(true);
    });
  });

  describe('tools/call: validation', () => {
    const validationError = (result: ToolResult) => {
      expect(result.isError).toBe(true);
      expect(result.structuredContent.status).toBe('error');
      const error = result.structuredContent.error as { code: string; retryable: boolean; fields: string[]; message: string };
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.retryable).toBe(false);
      return error;
    };

    it('valid arguments reach the tool as a DTO instance with defaults applied', async () => {
      expect((await callResult('echo', { city: 'Paris' })).structuredContent).toEqual({
        status: 'success',
        data: { city: 'Paris', limit: 5, isDto: true },
      });
      expect((await callResult('echo', { city: 'Paris', limit: 3 })).structuredContent).toEqual({
        status: 'success',
        data: { city: 'Paris', limit: 3, isDto: true },
      });
    });

    it('a missing required argument', async () => {
      const error = validationError(await callResult('echo', {}));
      expect(error.fields).toEqual(['city']);
      expect(error.message).toContain('city');
    });

    it('missing arguments altogether count as {}', async () => {
      expect(validationError(await callResult('echo')).fields).toEqual(['city']);
    });

    it('an extra argument', async () => {
      const error = validationError(await callResult('echo', { city: 'Paris', unit: 'c' }));
      expect(error.fields).toEqual(['unit']);
    });

    it('a wrong type', async () => {
      expect(validationError(await callResult('echo', { city: 12 })).fields).toEqual(['city']);
      expect(validationError(await callResult('echo', { city: 'Paris', limit: '3' })).fields).toEqual(['limit']);
      expect(validationError(await callResult('echo', { city: 'Paris', limit: 11 })).fields).toEqual(['limit']);
    });

    it('several failures list every field', async () => {
      expect(validationError(await callResult('echo', { city: 1, limit: 0, extra: true })).fields.sort()).toEqual([
        'city',
        'extra',
        'limit',
      ]);
    });

    it('nested DTO paths are dotted', async () => {
      expect(validationError(await callResult('person', { name: 'Ann', address: { city: 5 } })).fields).toEqual(['address.city']);
      expect(validationError(await callResult('person', { name: 'Ann', address: { city: 'Rome', zip: '1' } })).fields).toEqual([
        'address.zip',
      ]);
      expect((await callResult('person', { name: 'Ann', address: { city: 'Rome' } })).structuredContent).toEqual({
        status: 'success',
        data: { name: 'Ann', city: 'Rome' },
      });
    });

    it('an argument-less tool given arguments', async () => {
      const error = validationError(await callResult('no_args', { x: 1, y: 2 }));
      expect(error.fields).toEqual(['x', 'y']);
    });

    it('an argument-less tool given {} succeeds', async () => {
      expect((await callResult('no_args', {})).structuredContent).toEqual({ status: 'success', data: 'ok' });
    });

    it('does not let arguments pollute prototypes', async () => {
      const args = JSON.parse('{"city":"Paris","__proto__":{"polluted":true}}') as Record<string, unknown>;
      await callResult('echo', args);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('cancellation', () => {
    const scoped = (scope: string): McpRequestContext => ({ ...CONTEXT, cancellationScope: scope });

    function register(id: string | number) {
      const started = deferred();
      const entry = { started: started.resolve } as {
        started: () => void;
        signal?: AbortSignal;
        release?: (value: string) => void;
        reason?: unknown;
      };
      cancellable.set(id, entry);
      return { entry, started: started.promise };
    }

    it('notifications/cancelled in the same scope aborts the call and suppresses its response', async () => {
      const { entry, started } = register('c1');
      const pending = dispatcher.dispatch(
        { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'wait_for_cancel' } },
        scoped('s1'),
      );
      await started;
      const ack = await dispatcher.dispatch(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user hit stop' } },
        scoped('s1'),
      );
      expect(ack).toBeUndefined();
      expect(await pending).toBeUndefined();
      expect(entry.signal?.aborted).toBe(true);
      expect((entry.reason as Error).message).toBe('user hit stop');
    });

    it('works with numeric ids', async () => {
      const { entry, started } = register(77);
      const pending = dispatcher.dispatch(
        { jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'wait_for_cancel' } },
        scoped('s1'),
      );
      await started;
      await dispatcher.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 77 } }, scoped('s1'));
      expect(await pending).toBeUndefined();
      expect(entry.signal?.aborted).toBe(true);
    });

    it('a cancellation from another scope, or for the id with another type, does nothing', async () => {
      const { entry, started } = register(8);
      const pending = dispatcher.dispatch(
        { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'wait_for_cancel' } },
        scoped('s1'),
      );
      await started;
      await dispatcher.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } }, scoped('s2'));
      await dispatcher.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '8' } }, scoped('s1'));
      await dispatcher.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } }, CONTEXT);
      await sleep(10);
      expect(entry.signal?.aborted).toBe(false);
      entry.release?.('released');
      const response = await pending;
      expect((resultOf(response) as ToolResult).structuredContent).toEqual({ status: 'success', data: 'released' });
    });

    it('a cancellation after the response does nothing', async () => {
      const { entry, started } = register('c3');
      const pending = dispatcher.dispatch(
        { jsonrpc: '2.0', id: 'c3', method: 'tools/call', params: { name: 'wait_for_cancel' } },
        scoped('s1'),
      );
      await started;
      entry.release?.('done');
      expect(resultOf(await pending)).toMatchObject({ isError: false });
      await dispatcher.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c3' } }, scoped('s1'));
      expect(entry.signal?.aborted).toBe(false);
    });

    it('without a cancellation scope the call cannot be cancelled', async () => {
      const { entry, started } = register('c4');
      const pending = dispatcher.dispatch({ jsonrpc: '2.0', id: 'c4', method: 'tools/call', params: { name: 'wait_for_cancel' } }, CONTEXT);
      await started;
      await dispatcher.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c4' } }, CONTEXT);
      await sleep(5);
      expect(entry.signal?.aborted).toBe(false);
      entry.release?.('x');
      expect(resultOf(await pending)).toMatchObject({ isError: false });
    });
  });

  describe('progress', () => {
    it('sends strictly increasing notifications/progress when a progressToken was given, and nothing after the response', async () => {
      const send = jest.fn();
      const response = await call('progress', {}, { _meta: { progressToken: 'tok-1' } }, { ...CONTEXT, send });
      expect((resultOf(response) as ToolResult).structuredContent).toEqual({ status: 'success', data: 'done' });
      expect(send.mock.calls.map(([message]) => message)).toEqual([
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 1, total: 10, message: 'one' } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 5, total: 10 } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 7 } },
      ]);
      captured.context?.reportProgress(100);
      captured.context?.log('emergency', 'late');
      expect(send).toHaveBeenCalledTimes(3);
    });

    it('accepts a numeric progressToken (including 0)', async () => {
      const send = jest.fn();
      await call('progress', {}, { _meta: { progressToken: 0 } }, { ...CONTEXT, send });
      expect(send).toHaveBeenCalledTimes(3);
      expect((send.mock.calls[0][0] as JsonRpcMessage & { params: { progressToken: unknown } }).params.progressToken).toBe(0);
    });

    it.each([
      ['no _meta', {}],
      ['_meta without progressToken', { _meta: {} }],
      ['an object progressToken', { _meta: { progressToken: { a: 1 } } }],
      ['a null progressToken', { _meta: { progressToken: null } }],
    ])('sends no progress with %s', async (_label, extra) => {
      const send = jest.fn();
      await call('progress', {}, extra, { ...CONTEXT, send });
      expect(send).not.toHaveBeenCalled();
    });

    it('does nothing without a send channel', async () => {
      expect((await callResult('progress', {}, { _meta: { progressToken: 't' } })).structuredContent).toEqual({
        status: 'success',
        data: 'done',
      });
    });
  });

  describe('logging', () => {
    it('logging/setLevel calls context.setLogLevel and answers {}', async () => {
      const setLogLevel = jest.fn(async () => undefined);
      const response = await dispatcher.dispatch(
        { jsonrpc: '2.0', id: 'lvl', method: 'logging/setLevel', params: { level: 'warning' } },
        { ...CONTEXT, setLogLevel },
      );
      expect(response).toEqual({ jsonrpc: '2.0', id: 'lvl', result: {} });
      expect(setLogLevel).toHaveBeenCalledTimes(1);
      expect(setLogLevel).toHaveBeenCalledWith('warning');
    });

    it('logging/setLevel without a session still answers {}', async () => {
      expect(
        resultOf(await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } }, CONTEXT)),
      ).toEqual({});
    });

    it.each([
      ['an unknown level', { level: 'verbose' }],
      ['an upper-case level', { level: 'INFO' }],
      ['a missing level', {}],
      ['a numeric level', { level: 3 }],
    ])('logging/setLevel with %s is -32602 and stores nothing', async (_label, params) => {
      const setLogLevel = jest.fn(async () => undefined);
      const response = await dispatcher.dispatch(
        { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params },
        { ...CONTEXT, setLogLevel },
      );
      expect(errorOf(response).code).toBe(-32602);
      expect(setLogLevel).not.toHaveBeenCalled();
    });

    it('context.log sends notifications/message at or above the request logLevel', async () => {
      const send = jest.fn();
      await call('logs', {}, {}, { ...CONTEXT, send, logLevel: 'warning' });
      expect(send.mock.calls.map(([message]) => message)).toEqual([
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', logger: 'my-logger', data: 'careful' } },
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'broken' } },
      ]);
    });

    it('context.log sends every level without a logLevel', async () => {
      const send = jest.fn();
      await call('logs', {}, {}, { ...CONTEXT, send });
      expect(send.mock.calls.map(([message]) => (message as { params: { level: string } }).params.level)).toEqual([
        'debug',
        'info',
        'warning',
        'error',
      ]);
      expect(send.mock.calls[1][0]).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: { step: 1 } },
      });
    });

    it('context.log at info drops only debug', async () => {
      const send = jest.fn();
      await call('logs', {}, {}, { ...CONTEXT, send, logLevel: 'info' });
      expect(send.mock.calls.map(([message]) => (message as { params: { level: string } }).params.level)).toEqual([
        'info',
        'warning',
        'error',
      ]);
    });

    it('context.log at emergency drops everything below', async () => {
      const send = jest.fn();
      await call('logs', {}, {}, { ...CONTEXT, send, logLevel: 'emergency' });
      expect(send).not.toHaveBeenCalled();
    });
  });

  describe('method handlers', () => {
    @McpMethodHandlerProvider()
    @Injectable()
    class EchoHandler implements McpMethodHandler {
      readonly method = 'custom/echo';
      handle({ params }: McpCall) {
        return { echoed: params.value };
      }
    }

    @McpMethodHandlerProvider()
    @Injectable()
    class FailingHandler implements McpMethodHandler {
      readonly method = 'custom/fail';
      handle(): Record<string, unknown> {
        throw new Error(SECRET);
      }
    }

    it('serves a method contributed by any provider; a handler error is -32603 without details', async () => {
      const extra = await bootDispatcher([EchoHandler, FailingHandler]);
      expect(await extra.dispatch({ jsonrpc: '2.0', id: 1, method: 'custom/echo', params: { value: 3 } }, CONTEXT)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { echoed: 3 },
      });
      expect(await extra.dispatch({ jsonrpc: '2.0', id: 2, method: 'custom/fail' }, CONTEXT)).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32603, message: 'Internal error' },
      });
    });
  });
});
