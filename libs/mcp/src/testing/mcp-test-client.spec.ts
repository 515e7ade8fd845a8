import 'reflect-metadata';
import {
  Injectable,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { map, type Observable } from 'rxjs';
import {
  McpArgs,
  McpConfigurationError,
  McpContext,
  McpModule,
  McpPrompt,
  McpProperty,
  McpResource,
  McpTool,
  type McpToolContext,
} from '../index.js';
import * as testingFace from './index.js';
import { McpRpcError, McpTestClient } from './index.js';

class RepeatArgs {
  @McpProperty({ description: 'What to repeat' })
  @IsString()
  @Length(1, 20)
  text: string;

  @McpProperty({ description: 'How many times' })
  @IsInt()
  @Min(1)
  @Max(3)
  times: number;
}

@Injectable()
class DenyGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
class ShoutInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => ({ shouted: String((value as { text: string }).text).toUpperCase() })));
  }
}

/** An app's API-key guard, as over REST: it reads the request's `x-api-key` header. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    return headers['x-api-key'] === 'k1';
  }
}

/** Resolves when `release` is called; lets a spec hold a call in flight. */
const held: { release?: () => void; aborted?: boolean } = {};

@Injectable()
class SpecTools {
  @McpTool({ description: 'Repeats a text', scopes: ['text:read'] })
  repeat(@McpArgs() args: RepeatArgs, @McpContext() context: McpToolContext) {
    context.log('info', `repeating for ${context.tenant}`);
    return {
      text: args.text.repeat(args.times),
      tenant: context.tenant,
      subject: context.principal?.subject,
      transport: context.transport,
    };
  }

  @McpTool({ description: 'Never runs' })
  @UseGuards(DenyGuard)
  guarded() {
    return 'never';
  }

  @McpTool({ description: 'Behind an API-key guard' })
  @UseGuards(ApiKeyGuard)
  keyed() {
    return { opened: true };
  }

  @McpTool({ description: 'Says hello, loudly' })
  @UseInterceptors(ShoutInterceptor)
  hello() {
    return { text: 'hello' };
  }

  @McpTool({ description: 'Writes (needs text:write)', scopes: ['text:write'] })
  write() {
    return { written: true };
  }

  @McpTool({ description: 'Waits until released or cancelled' })
  async wait(@McpContext() context: McpToolContext) {
    await new Promise<void>((resolve) => {
      held.release = resolve;
      context.signal.addEventListener('abort', () => {
        held.aborted = true;
        resolve();
      });
    });
    return { done: true };
  }

  @McpResource({ uri: 'app://motd', name: 'motd', mimeType: 'text/plain', description: 'Message of the day' })
  motd() {
    return 'Be kind';
  }

  @McpPrompt({ description: 'Greets someone', arguments: [{ name: 'who', required: true }] })
  greet(args: { who: string }) {
    return `Say hello to ${args.who}`;
  }
}

async function compile(options: Record<string, unknown> = {}): Promise<TestingModule> {
  return Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'spec', version: '1.0.0', ...options })],
    providers: [SpecTools, DenyGuard, ShoutInterceptor, ApiKeyGuard],
  })
    .setLogger({ log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} })
    .compile();
}

const READER = { subject: 'alice', tenant: 'acme', scopes: ['text:read'] };

describe('McpTestClient', () => {
  let moduleRef: TestingModule;
  let client: McpTestClient;

  beforeAll(async () => {
    moduleRef = await compile(); // not initialised: create() does it
    client = await McpTestClient.create(moduleRef, { principal: READER });
  });
  afterAll(async () => {
    await client.close();
    await moduleRef.close();
  });

  it('lists the tools this principal may see (write needs a scope it lacks)', async () => {
    const names = (await client.listTools()).map((tool) => tool.name).sort();
    expect(names).toEqual(expect.arrayContaining(['guarded', 'hello', 'repeat', 'wait']));
    expect(names).not.toContain('write');
    expect((await client.listTools()).find((tool) => tool.name === 'repeat')?.inputSchema).toMatchObject({ required: ['text', 'times'] });
  });

  it('calls a tool as the principal, through the pipeline, and returns the result and its envelope', async () => {
    const { result, envelope } = await client.callTool('repeat', { text: 'ab', times: 2 });
    expect(result.isError).toBe(false);
    expect(envelope).toEqual({ status: 'success', data: { text: 'abab', tenant: 'acme', subject: 'alice', transport: 'memory' } });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(envelope);
    expect(client.notifications).toContainEqual({ method: 'notifications/message', params: { level: 'info', data: 'repeating for acme' } });
  });

  it('a guard that refuses gives the FORBIDDEN envelope', async () => {
    const { result, envelope } = await client.callTool('guarded');
    expect(result.isError).toBe(true);
    expect(envelope).toEqual({ status: 'error', error: { code: 'FORBIDDEN', message: 'Forbidden resource', retryable: false } });
  });

  it("a guard reading a header sees the client's headers, and a call's own over them", async () => {
    expect((await client.callTool('keyed')).envelope).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
    const keyed = await McpTestClient.create(moduleRef, { principal: READER, headers: { 'X-API-Key': 'k1' } });
    try {
      expect((await keyed.callTool('keyed')).envelope).toEqual({ status: 'success', data: { opened: true } });
      const wrongKey = await keyed.callTool('keyed', {}, { headers: { 'x-api-key': 'k2' } });
      expect(wrongKey.envelope).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
    } finally {
      await keyed.close();
    }
    expect((await client.callTool('keyed', {}, { headers: { 'x-api-key': 'k1' } })).envelope).toMatchObject({ status: 'success' });
    await expect(McpTestClient.create(moduleRef, { headers: { 'x-api-key': 1 } as never })).rejects.toThrow(
      /MCP_ERR_TESTING_HEADERS_INVALID|headers must be an object/,
    );
  });

  it('an interceptor changes the result', async () => {
    expect((await client.callTool('hello')).envelope).toEqual({ status: 'success', data: { shouted: 'HELLO' } });
  });

  it('a missing scope is refused with FORBIDDEN naming the scope', async () => {
    const { envelope } = await client.callTool('write');
    expect(envelope).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN', retryable: false } });
    expect(envelope?.status === 'error' && envelope.error.message).toContain('text:write');
  });

  it('invalid arguments give VALIDATION_ERROR with the fields', async () => {
    const { result, envelope } = await client.callTool('repeat', { text: '', times: 9 });
    expect(result.isError).toBe(true);
    expect(envelope).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR' } });
    expect(envelope?.status === 'error' && [...(envelope.error.fields ?? [])].sort()).toEqual(['text', 'times']);
  });

  it('an unknown tool is a JSON-RPC error (McpRpcError), not an envelope', async () => {
    const error = await client.callTool('nope').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpRpcError);
    expect(error).toMatchObject({ code: -32602, method: 'tools/call' });
  });

  it('lists and reads resources; an unknown URI is -32002', async () => {
    expect(await client.listResources()).toEqual([
      expect.objectContaining({ uri: 'app://motd', name: 'motd', mimeType: 'text/plain', description: 'Message of the day' }),
    ]);
    expect(await client.readResource('app://motd')).toEqual({ contents: [{ uri: 'app://motd', mimeType: 'text/plain', text: 'Be kind' }] });
    await expect(client.readResource('app://none')).rejects.toMatchObject({ code: -32002 });
  });

  it('lists and gets prompts; a missing required argument is -32602', async () => {
    expect(await client.listPrompts()).toEqual([
      expect.objectContaining({ name: 'greet', arguments: [expect.objectContaining({ name: 'who', required: true })] }),
    ]);
    expect(await client.getPrompt('greet', { who: 'Bob' })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Bob' } }],
    });
    await expect(client.getPrompt('greet')).rejects.toMatchObject({ code: -32602 });
  });

  it('request() reaches any other method', async () => {
    expect(await client.request('ping')).toEqual({});
  });

  it('close() cancels a call in flight: its handler sees the abort, the call rejects', async () => {
    const own = await McpTestClient.create(moduleRef, { principal: READER });
    held.aborted = false;
    const call = own.callTool('wait');
    await new Promise((resolve) => setImmediate(resolve));
    await own.close();
    await expect(call).rejects.toThrow(/closed/);
    expect(held.aborted).toBe(true);
    await expect(own.listTools()).rejects.toThrow(/closed/);
  });
});

describe('McpTestClient and the module options', () => {
  const apps: Array<INestApplication | TestingModule> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('limits.rateLimit refuses the call past the limit with RATE_LIMITED (retryable)', async () => {
    const app = (await compile({ limits: { rateLimit: { limit: 2, windowMs: 60_000 } } })).createNestApplication({ logger: false });
    apps.push(app);
    const client = await McpTestClient.create(app, { principal: READER });
    for (let i = 0; i < 2; i++) expect((await client.callTool('hello')).envelope?.status).toBe('success');
    expect((await client.callTool('hello')).envelope).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED', retryable: true } });
    // Limits are per tenant, as over HTTP.
    const other = await McpTestClient.create(app, { principal: { subject: 'bob', tenant: 'globex' } });
    expect((await other.callTool('hello')).envelope?.status).toBe('success');
  });

  it('refuses to call anonymously an app that authenticates its callers', async () => {
    const moduleRef = await compile({ auth: { apiKeys: [{ key: 'k'.repeat(32), tenant: 'acme', scopes: ['text:read'] }] } });
    apps.push(moduleRef);
    const error = await McpTestClient.create(moduleRef).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toMatch(/authenticates its callers.*options\.principal/);
    const client = await McpTestClient.create(moduleRef, { principal: READER });
    expect((await client.callTool('repeat', { text: 'x', times: 1 })).envelope?.status).toBe('success');
  });

  it.each([
    [{ principal: { tenant: 'acme' } }, /options\.principal needs a non-empty subject/],
    [{ principal: { subject: 'a', scopes: 'text:read' } }, /scopes that are not an array of strings/],
    [{ protocolVersion: '2026-07-28' }, /not a revision negotiated by initialize; use one of 2025-11-25/],
    [{ principle: {} }, /unknown option "principle"/],
  ])('checks its options: %j', async (options, message) => {
    const moduleRef = await compile();
    apps.push(moduleRef);
    await expect(McpTestClient.create(moduleRef, options as never)).rejects.toThrow(message);
  });

  it('names the fix when the app has no McpModule', async () => {
    const moduleRef = await Test.createTestingModule({ providers: [] }).compile();
    apps.push(moduleRef);
    await expect(McpTestClient.create(moduleRef)).rejects.toThrow(/no McpModule; import McpModule\.forRoot/);
  });

  it('speaks the revision it is given', async () => {
    const moduleRef = await compile();
    apps.push(moduleRef);
    const client = await McpTestClient.create(moduleRef, { protocolVersion: '2025-06-18' });
    const { result } = await client.callTool('hello');
    expect(result.structuredContent).toEqual({ status: 'success', data: { shouted: 'HELLO' } });
  });
});

describe('@nest-mcp/core/testing', () => {
  it('exports the test client, the SDK transport, the RPC error and the McpClient factory, and nothing internal', () => {
    expect(Object.keys(testingFace).sort()).toEqual(['McpInMemoryTransport', 'McpRpcError', 'McpTestClient', 'createMcpTestClient']);
  });
});
