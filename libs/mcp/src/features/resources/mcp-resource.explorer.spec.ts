import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Inject, Injectable, NotFoundException, Scope, UseGuards, type CanActivate, type INestApplication } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import {
  McpConfigurationError,
  McpContext,
  McpResource,
  McpResourceNotifier,
  McpResourceParams,
  McpResourceTemplate,
  type McpResourceContext,
  type McpResourceOptions,
} from '../../index.js';
import { McpDispatcher } from '../../core/mcp.dispatcher.js';
import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { bootMcp, bootError, closeMcpApps } from '../../../../../test/kit/boot-mcp.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../../core/session-streams.interface.js';

const CONTEXT: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25' };
const SESSION: McpRequestContext = { ...CONTEXT, sessionId: 'session-1' };
const SECRET = 'db password hunter2';

async function rpc(
  app: INestApplication,
  method: string,
  params?: Record<string, unknown>,
  context: McpRequestContext = CONTEXT,
): Promise<any> {
  return app.get(McpDispatcher).dispatch({ jsonrpc: '2.0', id: 1, method, ...(params && { params }) }, context);
}

afterEach(closeMcpApps);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

@Injectable()
class DenyAll implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

/** Declared once: `resources/list` shows each as given (the decorator gets a copy, so the lister cannot change these). */
const STATIC_TEXT: McpResourceOptions = {
  uri: 'test://static-text',
  name: 'static-text',
  title: 'Static text',
  description: 'A text resource',
  mimeType: 'text/plain',
  size: 11,
};
const STATIC_BINARY: McpResourceOptions = {
  uri: 'test://static-binary',
  name: 'static-binary',
  mimeType: 'image/png',
  annotations: { audience: ['user'], priority: 0.5 },
};

@Injectable()
class Resources {
  @McpResource(structuredClone(STATIC_TEXT))
  text() {
    return 'hello world';
  }

  @McpResource(structuredClone(STATIC_BINARY))
  binary() {
    return PNG;
  }

  @McpResource({ uri: 'test://multi', name: 'multi' })
  multi(_params: Record<string, string>, context: McpResourceContext) {
    return {
      contents: [
        { uri: context.uri, text: 'main' },
        { uri: `${context.uri}/part`, mimeType: 'application/json', text: '{}' },
      ],
    };
  }

  @McpResource({ uri: 'test://template/fixed/data', name: 'fixed-beats-template' })
  fixed() {
    return 'fixed';
  }

  @McpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data by id',
    mimeType: 'application/json',
  })
  templated(@McpResourceParams() params: { id: string }, @McpContext() context: McpResourceContext) {
    return JSON.stringify({
      id: params.id,
      uri: context.uri,
      template: context.uriTemplate,
      name: context.resourceName,
      requestId: context.requestId,
    });
  }

  @McpResourceTemplate({ uriTemplate: 'test://{kind}/{id}/data', name: 'generic' })
  generic(params: { kind: string; id: string }, context: McpResourceContext) {
    return `${params.kind}:${params.id}:${context.resourceName}`;
  }

  @McpResourceTemplate({ uriTemplate: 'file:///{+path}', name: 'files' })
  file(params: { path: string }) {
    return `file ${params.path}`;
  }

  @McpResourceTemplate({ uriTemplate: 'test://missing/{id}', name: 'missing' })
  missing(params: { id: string }) {
    if (params.id !== 'present') throw new NotFoundException(`no ${params.id}`);
    return 'present';
  }

  @McpResource({ uri: 'test://broken', name: 'broken' })
  broken() {
    throw new Error(SECRET);
  }

  @McpResource({ uri: 'test://bad-result', name: 'bad-result' })
  badResult() {
    return 42;
  }

  @McpResource({ uri: 'test://guarded', name: 'guarded' })
  @UseGuards(DenyAll)
  guarded() {
    return 'never';
  }

  @McpResource({ uri: 'test://logged', name: 'logged' })
  logged(_params: Record<string, string>, context: McpResourceContext) {
    context.log('info', `reading ${context.uri}`);
    context.reportProgress(1, 1);
    return Object.keys(context).sort().join(',');
  }

  @McpResource({ uri: 'test://async', name: 'async' })
  async asyncText() {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return 'later';
  }
}

describe('resources', () => {
  describe('capabilities and methods', () => {
    it('declares nothing and serves no resources methods without resources', async () => {
      const app = await bootMcp([]);
      const init = await rpc(app, 'initialize', { protocolVersion: '2025-11-25' });
      expect(init.result.capabilities.resources).toBeUndefined();
      expect(init.result.capabilities.completions).toBeUndefined();
      for (const method of [
        'resources/list',
        'resources/templates/list',
        'resources/read',
        'resources/subscribe',
        'resources/unsubscribe',
      ]) {
        expect(await rpc(app, method, { uri: 'test://x' })).toMatchObject({ error: { code: -32601 } });
      }
    });

    it('declares resources.subscribe (no listChanged), and completions when there are templates', async () => {
      const app = await bootMcp([Resources]);
      const init = await rpc(app, 'initialize', { protocolVersion: '2025-11-25' });
      expect(init.result.capabilities.resources).toEqual({ subscribe: true });
      expect(init.result.capabilities.completions).toEqual({});
    });

    it('does not declare completions for fixed resources only', async () => {
      @Injectable()
      class OnlyFixed {
        @McpResource({ uri: 'test://only', name: 'only' })
        only() {
          return 'x';
        }
      }
      const app = await bootMcp([OnlyFixed]);
      const init = await rpc(app, 'initialize', { protocolVersion: '2025-11-25' });
      expect(init.result.capabilities.resources).toEqual({ subscribe: true });
      expect(init.result.capabilities.completions).toBeUndefined();
    });
  });

  describe('resources/list and resources/templates/list', () => {
    it('lists fixed resources with their descriptors, and templates apart', async () => {
      const app = await bootMcp([Resources]);
      const list = await rpc(app, 'resources/list');
      expect(list.result.nextCursor).toBeUndefined();
      expect(list.result.resources.map((resource: { uri: string }) => resource.uri)).toEqual([
        'test://static-text',
        'test://static-binary',
        'test://multi',
        'test://template/fixed/data',
        'test://broken',
        'test://bad-result',
        'test://guarded',
        'test://logged',
        'test://async',
      ]);
      expect(list.result.resources[0]).toEqual(STATIC_TEXT);
      expect(list.result.resources[1]).toEqual(STATIC_BINARY);
      const templates = await rpc(app, 'resources/templates/list');
      expect(templates.result).toEqual({
        resourceTemplates: [
          { uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data by id', mimeType: 'application/json' },
          { uriTemplate: 'test://{kind}/{id}/data', name: 'generic' },
          { uriTemplate: 'file:///{+path}', name: 'files' },
          { uriTemplate: 'test://missing/{id}', name: 'missing' },
        ],
      });
    });

    it('pages with the module pageSize and refuses a foreign cursor', async () => {
      const app = await bootMcp([Resources], { options: { lists: { pageSize: 3 } } });
      const uris: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await rpc(app, 'resources/list', cursor === undefined ? {} : { cursor });
        expect(page.result.resources.length).toBeLessThanOrEqual(3);
        uris.push(...page.result.resources.map((resource: { uri: string }) => resource.uri));
        cursor = page.result.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      expect(uris).toHaveLength(9);
      const templates = await rpc(app, 'resources/templates/list');
      expect(templates.result.resourceTemplates).toHaveLength(3);
      expect(await rpc(app, 'resources/templates/list', { cursor: templates.result.nextCursor })).toMatchObject({
        result: { resourceTemplates: [{ name: 'missing' }] },
      });
      expect(await rpc(app, 'resources/list', { cursor: 'bogus' })).toMatchObject({ error: { code: -32602 } });
      expect(await rpc(app, 'resources/templates/list', { cursor: 7 })).toMatchObject({ error: { code: -32602 } });
    });
  });

  describe('resources/read', () => {
    it('reads text, binary (base64 blob) and explicit contents', async () => {
      const app = await bootMcp([Resources]);
      expect((await rpc(app, 'resources/read', { uri: 'test://static-text' })).result).toEqual({
        contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'hello world' }],
      });
      expect((await rpc(app, 'resources/read', { uri: 'test://static-binary' })).result).toEqual({
        contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG.toString('base64') }],
      });
      expect((await rpc(app, 'resources/read', { uri: 'test://multi' })).result).toEqual({
        contents: [
          { uri: 'test://multi', text: 'main' },
          { uri: 'test://multi/part', mimeType: 'application/json', text: '{}' },
        ],
      });
      expect((await rpc(app, 'resources/read', { uri: 'test://async' })).result.contents[0].text).toBe('later');
    });

    it('reads a template with decoded variables, the context, and the template mimeType', async () => {
      const app = await bootMcp([Resources]);
      const read = await rpc(app, 'resources/read', { uri: 'test://template/a%20b/data' });
      expect(read.result.contents).toHaveLength(1);
      expect(read.result.contents[0]).toMatchObject({ uri: 'test://template/a%20b/data', mimeType: 'application/json' });
      expect(JSON.parse(read.result.contents[0].text)).toEqual({
        id: 'a b',
        uri: 'test://template/a%20b/data',
        template: 'test://template/{id}/data',
        name: 'template-data',
        requestId: 1,
      });
      expect((await rpc(app, 'resources/read', { uri: 'file:///etc/motd' })).result.contents[0].text).toBe('file etc/motd');
    });

    it('tries fixed resources first, then templates in registration order', async () => {
      const app = await bootMcp([Resources]);
      expect((await rpc(app, 'resources/read', { uri: 'test://template/fixed/data' })).result.contents[0].text).toBe('fixed');
      expect(JSON.parse((await rpc(app, 'resources/read', { uri: 'test://template/7/data' })).result.contents[0].text).name).toBe(
        'template-data',
      );
      expect((await rpc(app, 'resources/read', { uri: 'test://other/7/data' })).result.contents[0].text).toBe('other:7:generic');
    });

    it('answers an unknown URI with -32002 and the uri as data', async () => {
      const app = await bootMcp([Resources]);
      expect(await rpc(app, 'resources/read', { uri: 'test://nope' })).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32002, message: 'Resource not found', data: { uri: 'test://nope' } },
      });
      expect(await rpc(app, 'resources/read', { uri: 'test://missing/absent' })).toMatchObject({
        error: { code: -32002, data: { uri: 'test://missing/absent' } },
      });
      expect((await rpc(app, 'resources/read', { uri: 'test://missing/present' })).result.contents[0].text).toBe('present');
    });

    it.each<[string, Record<string, unknown> | undefined]>([
      ['no params', undefined],
      ['no uri', {}],
      ['a numeric uri', { uri: 42 }],
      ['an empty uri', { uri: '' }],
    ])('answers %s with -32602', async (_label, params) => {
      const app = await bootMcp([Resources]);
      expect(await rpc(app, 'resources/read', params)).toMatchObject({ error: { code: -32602 } });
    });

    it('answers a throwing handler with a bare -32603, logging the error', async () => {
      const app = await bootMcp([Resources]);
      const response = await rpc(app, 'resources/read', { uri: 'test://broken' });
      expect(response.error).toEqual({ code: -32603, message: 'Internal error' });
      expect(JSON.stringify(response)).not.toContain('hunter2');
    });

    it('answers a handler returning an unsupported value with -32603', async () => {
      const app = await bootMcp([Resources]);
      expect((await rpc(app, 'resources/read', { uri: 'test://bad-result' })).error).toEqual({ code: -32603, message: 'Internal error' });
    });

    it('applies guards: a refusal is an error with the guard message, not a read', async () => {
      const app = await bootMcp([Resources, DenyAll]);
      expect((await rpc(app, 'resources/read', { uri: 'test://guarded' })).error).toEqual({
        code: -32000,
        message: 'Forbidden resource',
        data: { status: 403 },
      });
    });

    it('gives the handler a context that logs and reports progress on the request channel', async () => {
      const app = await bootMcp([Resources]);
      const sent: JsonRpcMessage[] = [];
      const response = await app
        .get(McpDispatcher)
        .dispatch(
          { jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'test://logged', _meta: { progressToken: 'p1' } } },
          { ...CONTEXT, send: (message) => sent.push(message) },
        );
      expect((response as any).result.contents[0].text).toBe(
        'log,principal,protocolVersion,reportProgress,requestId,resourceName,sessionId,signal,tenant,transport,uri',
      );
      expect(sent).toEqual([
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'reading test://logged' } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 1 } },
      ]);
    });

    it('resolves a request-scoped provider anew for every read', async () => {
      let created = 0;
      @Injectable({ scope: Scope.REQUEST })
      class Scoped {
        readonly instance = ++created;
        constructor(@Inject(REQUEST) readonly request: { mcp?: McpResourceContext }) {}

        @McpResourceTemplate({ uriTemplate: 'test://scoped/{id}', name: 'scoped' })
        read(params: { id: string }) {
          return `${params.id}:${this.instance}:${this.request.mcp?.uri}`;
        }
      }
      const app = await bootMcp([Scoped]);
      expect((await rpc(app, 'resources/read', { uri: 'test://scoped/a' })).result.contents[0].text).toBe('a:1:test://scoped/a');
      expect((await rpc(app, 'resources/read', { uri: 'test://scoped/b' })).result.contents[0].text).toBe('b:2:test://scoped/b');
    });
  });

  describe('subscriptions', () => {
    it('subscribes per session; McpResourceNotifier sends notifications/resources/updated on the GET stream', async () => {
      const app = await bootMcp([Resources]);
      const streams = app.get<McpSessionStreams>(MCP_SESSION_STREAMS);
      const sent: Array<[string, JsonRpcMessage]> = [];
      jest.spyOn(streams, 'notifySession').mockImplementation((sessionId, message) => {
        sent.push([sessionId, message]);
        return true;
      });
      const notifier = app.get(McpResourceNotifier);
      expect(await rpc(app, 'resources/subscribe', { uri: 'test://static-text' }, SESSION)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect(await rpc(app, 'resources/subscribe', { uri: 'test://template/5/data' }, SESSION)).toMatchObject({ result: {} });
      expect(notifier.resourceUpdated('test://static-text')).toBe(1);
      expect(notifier.resourceUpdated('test://template/5/data')).toBe(1);
      expect(notifier.resourceUpdated('test://static-binary')).toBe(0);
      expect(sent).toEqual([
        ['session-1', { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://static-text' } }],
        ['session-1', { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://template/5/data' } }],
      ]);
      expect(await rpc(app, 'resources/unsubscribe', { uri: 'test://static-text' }, SESSION)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {},
      });
      expect(await rpc(app, 'resources/unsubscribe', { uri: 'test://static-text' }, SESSION)).toMatchObject({ result: {} });
      expect(notifier.resourceUpdated('test://static-text')).toBe(0);
    });

    it('answers {} without a session, but nothing can be delivered', async () => {
      const app = await bootMcp([Resources]);
      expect(await rpc(app, 'resources/subscribe', { uri: 'test://static-text' })).toMatchObject({ result: {} });
      expect(app.get(McpResourceNotifier).resourceUpdated('test://static-text')).toBe(0);
      expect(await rpc(app, 'resources/unsubscribe', { uri: 'test://static-text' })).toMatchObject({ result: {} });
    });

    it('refuses an unknown URI (-32002) and a missing uri (-32602)', async () => {
      const app = await bootMcp([Resources]);
      expect(await rpc(app, 'resources/subscribe', { uri: 'test://nope' }, SESSION)).toMatchObject({
        error: { code: -32002, data: { uri: 'test://nope' } },
      });
      expect(await rpc(app, 'resources/subscribe', {}, SESSION)).toMatchObject({ error: { code: -32602 } });
      expect(await rpc(app, 'resources/unsubscribe', { uri: 3 }, SESSION)).toMatchObject({ error: { code: -32602 } });
    });
  });

  describe('boot errors', () => {
    function resourceClass(options: Parameters<typeof McpResource>[0]) {
      @Injectable()
      class Bad {
        @McpResource(options)
        read() {
          return 'x';
        }
      }
      return Bad;
    }

    function templateClass(options: Parameters<typeof McpResourceTemplate>[0]) {
      @Injectable()
      class BadTemplate {
        @McpResourceTemplate(options)
        read() {
          return 'x';
        }
      }
      return BadTemplate;
    }

    it.each<[string, Parameters<typeof McpResource>[0], string]>([
      ['a missing name', { uri: 'test://x' } as never, '"name"'],
      ['a blank name', { uri: 'test://x', name: '  ' }, '"name"'],
      ['a relative uri', { uri: 'static-text', name: 'x' }, 'not an absolute URI'],
      ['an empty uri', { uri: '', name: 'x' }, 'not an absolute URI'],
      ['a uri with spaces', { uri: 'test://a b', name: 'x' }, 'not an absolute URI'],
      ['a missing uri', { name: 'x' } as never, 'not an absolute URI'],
      ['a templated uri', { uri: 'test://{id}', name: 'x' }, '@McpResourceTemplate'],
      ['a negative size', { uri: 'test://x', name: 'x', size: -1 }, 'size'],
      ['a fractional size', { uri: 'test://x', name: 'x', size: 1.5 }, 'size'],
    ])('@McpResource with %s', async (_label, options, fragment) => {
      const error = await bootError(() => bootMcp([resourceClass(options)]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('Bad#read');
      expect(error.message).toContain(fragment);
    });

    it.each<[string, Parameters<typeof McpResourceTemplate>[0], string]>([
      ['a missing name', { uriTemplate: 'test://{id}' } as never, '"name"'],
      ['no variables', { uriTemplate: 'test://static', name: 'x' }, 'no {variable}'],
      ['an unclosed brace', { uriTemplate: 'test://{id', name: 'x' }, 'never closed'],
      ['a stray closing brace', { uriTemplate: 'test://id}/{x}', name: 'x' }, 'no matching "{"'],
      ['an unsupported operator', { uriTemplate: 'test://x{?q}', name: 'x' }, 'operator'],
      ['no scheme', { uriTemplate: 'items/{id}', name: 'x' }, 'absolute URI'],
      ['a non-string template', { uriTemplate: 42, name: 'x' } as never, 'string'],
    ])('@McpResourceTemplate with %s', async (_label, options, fragment) => {
      const error = await bootError(() => bootMcp([templateClass(options)]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('BadTemplate#read');
      expect(error.message).toContain(fragment);
    });

    it('refuses the same uri twice, naming both methods', async () => {
      @Injectable()
      class Twice {
        @McpResource({ uri: 'test://same', name: 'one' })
        one() {
          return '1';
        }

        @McpResource({ uri: 'test://same', name: 'two' })
        two() {
          return '2';
        }
      }
      const error = await bootError(() => bootMcp([Twice]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('"test://same"');
      expect(error.message).toContain('Twice#one');
      expect(error.message).toContain('Twice#two');
    });

    it('refuses the same template twice, naming both methods', async () => {
      @Injectable()
      class TemplateA {
        @McpResourceTemplate({ uriTemplate: 'test://t/{id}', name: 'a' })
        read() {
          return 'a';
        }
      }
      @Injectable()
      class TemplateB {
        @McpResourceTemplate({ uriTemplate: 'test://t/{id}', name: 'b' })
        read() {
          return 'b';
        }
      }
      const error = await bootError(() => bootMcp([TemplateA, TemplateB]));
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('TemplateA#read');
      expect(error.message).toContain('TemplateB#read');
    });

    it('boots the same resource class in two apps without a duplicate error, and keeps them apart', async () => {
      const first = await bootMcp([Resources]);
      const second = await bootMcp([]);
      expect((await rpc(first, 'resources/list')).result.resources).toHaveLength(9);
      expect(await rpc(second, 'resources/list')).toMatchObject({ error: { code: -32601 } });
      const third = await bootMcp([Resources]);
      expect((await rpc(third, 'resources/list')).result.resources).toHaveLength(9);
    });
  });
});
